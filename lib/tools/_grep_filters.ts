/**
 * What `fs.grep` does after a search for the options the engines do not take themselves:
 * leaving out matches that also match an exclusion pattern, keeping at most so many matches per
 * file, and context lines only before or only after each match (grep -B / -A).
 */
import type { GrepHit, GrepLine } from "./_grep_search.ts";

/** The post-search options; a field left unset changes nothing. */
export interface GrepFilters {
  exclude?: RegExp;
  maxPerFile?: number;
  /** Context lines kept before and after each match. */
  before: number;
  after: number;
}

/** `hits` (content mode, with context lines) filtered as `f` says; files left without a match go. */
export function filterHits(hits: GrepHit[], f: GrepFilters): GrepHit[] {
  return hits.flatMap((hit) => {
    const matches = hit.lines.filter((l) => l.match && !f.exclude?.test(l.text))
      .slice(0, f.maxPerFile ?? Infinity);
    if (matches.length === 0) return [];
    const kept = new Set(matches.map((l) => l.line));
    const near = (l: GrepLine) =>
      matches.some((m) => l.line >= m.line - f.before && l.line <= m.line + f.after);
    const lines = hit.lines.filter((l) => kept.has(l.line) || (!l.match && near(l)));
    return [{ path: hit.path, count: matches.length, lines }];
  });
}

/** Escapes `text` so that a regular expression matches it literally (`fixed_strings`). */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
