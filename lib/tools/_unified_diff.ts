/** A unified diff and how many lines it adds and removes. */
export interface DiffSummary {
  diff: string;
  added: number;
  removed: number;
}

/**
 * A unified diff with 3 lines of context and `---`/`+++` headers; "" when nothing changed.
 * The `diff` package is loaded on first use: it is the biggest import of the file tools, and a
 * session that edits nothing should not pay for it at start-up.
 */
export async function unifiedDiff(
  from: string,
  to: string,
  texts: { before: string; after: string },
): Promise<DiffSummary> {
  const { structuredPatch } = await import("diff");
  const patch = structuredPatch(from, to, texts.before, texts.after, "", "", { context: 3 });
  if (!patch.hunks.length) return { diff: "", added: 0, removed: 0 };
  const body: string[] = [`--- ${from}`, `+++ ${to}`];
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    // An empty side is numbered from the line before it, as GNU diff does.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    body.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    // One push per line: spreading a hunk of a large file into push() overflows the stack.
    for (const line of h.lines) {
      body.push(line);
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { diff: body.join("\n") + "\n", added, removed };
}
