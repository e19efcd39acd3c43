/** Names near a mistyped one, for "did you mean" hints: the one edit distance of the program. */

/**
 * Edits that turn `a` into `b`: inserting, deleting or changing a character, or swapping two
 * neighbouring ones (optimal string alignment), since `exce` for `exec` is one slip of the fingers.
 */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** How `nearestNames()` chooses. */
export interface NearOptions {
  /** Most names returned; default 3. */
  most?: number;
  /** Most edits a near name may be away; default a third of the name's length, at least 2. */
  within?: number;
  /** Whether a name containing the typed one counts as nearest of all; default true. */
  contains?: boolean;
}

/**
 * Up to `most` of `known` nearest to `name`, nearest first, ignoring case: names that contain it
 * come first (unless `contains` is false), then those within `within` edits; among equally near
 * ones the shorter, then the earlier in `known`.
 */
export function nearestNames(name: string, known: readonly string[], opts: NearOptions = {}) {
  const wanted = name.toLowerCase();
  const limit = opts.within ?? Math.max(2, Math.floor(wanted.length / 3));
  const contains = (opts.contains ?? true) && wanted.length > 0;
  return [...new Set(known)]
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      return {
        candidate,
        score: contains && lower.includes(wanted) ? 0 : editDistance(wanted, lower),
      };
    })
    .filter(({ score }) => score <= limit)
    .sort((a, b) => a.score - b.score || a.candidate.length - b.candidate.length)
    .slice(0, opts.most ?? 3)
    .map(({ candidate }) => candidate);
}

/** The one name of `known` nearest to `name` (see `nearestNames()`), if any is near enough. */
export function nearestName(
  name: string,
  known: readonly string[],
  opts: Omit<NearOptions, "most"> = {},
): string | undefined {
  return nearestNames(name, known, { ...opts, most: 1 })[0];
}
