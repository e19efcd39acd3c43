import { structuredPatch } from "diff";

/** A unified diff with 3 lines of context and `---`/`+++` headers; "" when nothing changed. */
export function unifiedDiff(from: string, to: string, before: string, after: string): string {
  const patch = structuredPatch(from, to, before, after, "", "", { context: 3 });
  if (!patch.hunks.length) return "";
  const body: string[] = [`--- ${from}`, `+++ ${to}`];
  for (const h of patch.hunks) {
    // An empty side is numbered from the line before it, as GNU diff does.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    body.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`, ...h.lines);
  }
  return body.join("\n") + "\n";
}
