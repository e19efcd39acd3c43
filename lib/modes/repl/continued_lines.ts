/** Lines that end with `\` continue on the next one (both of the REPL's inputs, input.ts). */

/** Joins lines that end with `\` with the ones after them. */
export async function continued(
  read: (prompt: string) => Promise<string | null>,
  prompt: string,
): Promise<string | null> {
  const parts: string[] = [];
  while (true) {
    const line = await read(parts.length ? "… " : prompt);
    if (line === null) return parts.length ? parts.join("\n") : null;
    if (!line.endsWith("\\")) return [...parts, line].join("\n");
    parts.push(line.slice(0, -1));
  }
}
