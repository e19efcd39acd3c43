/** Arguments of a custom command as its vendor splits them, and quoting for shell text. */

/** The words of `text` as a shell splits them: quotes group, a backslash escapes outside '…'. */
export function splitArgs(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < text.length) {
      word = (word ?? "") + text[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** `value` as one shell word: as it is when it is plain, else in single quotes. */
export function shellQuote(value: string): string {
  if (value !== "" && /^[\w@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `KEY=value` words as a map (Codex's named arguments); words without `=` are left out. */
export function namedArgs(words: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq > 0) out.set(word.slice(0, eq), word.slice(eq + 1));
  }
  return out;
}
