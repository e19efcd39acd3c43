/** Names near a mistyped one, for "did you mean" hints. */

/** The number of single-character edits that turn `a` into `b` (Levenshtein distance). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * Up to `most` of `known` nearest to `name`, nearest first, ignoring case: names that contain it
 * come first, then those within a few edits (a third of its length, at least 2).
 */
export function nearestNames(name: string, known: readonly string[], most = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return [...new Set(known)]
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = wanted.length > 0 && lower.includes(wanted);
      return { candidate, score: contains ? 0 : editDistance(wanted, lower) };
    })
    .filter(({ score }) => score <= limit)
    .sort((a, b) => a.score - b.score || a.candidate.length - b.candidate.length)
    .slice(0, most)
    .map(({ candidate }) => candidate);
}
