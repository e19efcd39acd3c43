/**
 * Where a typed prompt mentions a path (`@notes.txt`, `@src/`, `@~/todo.md`): an `@` at the
 * start of the text or after white space or an opening bracket, followed by the path up to the
 * next white space; trailing punctuation (`.`, `,`, `)`, ...) ends the sentence, not the path.
 * An `@` inside a code span or a fenced block is left alone, and so is one inside a word (an
 * e-mail address, `user@host`).
 */

/** One mention of a path in a prompt. */
export interface Mention {
  /** As typed, `@` included. */
  token: string;
  /** The path after the `@`. */
  path: string;
  /** Where the token starts in the text. */
  index: number;
}

const MENTION = /(?<=^|[\s([{])@([^\s`'"<>()[\]{}]+)/g;
const TRAILING = /[.,;:!?]+$/;

/** The mentions of `text`, in order, each path once. */
export function findMentions(text: string): Mention[] {
  const code = codeRanges(text);
  const seen = new Set<string>();
  const found: Mention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const index = m.index!;
    if (code.some(([from, to]) => index >= from && index < to)) continue;
    // `@dir/.` keeps its slash; a lone `@.` or `@..` is a path too.
    const path = /^\.+$/.test(m[1]) ? m[1] : m[1].replace(TRAILING, "");
    if (path === "" || seen.has(path)) continue;
    seen.add(path);
    found.push({ token: `@${path}`, path, index });
  }
  return found;
}

/** Whether `path` reads as a file path (a dot, a slash or `~`), not a handle like `@alice`. */
export function looksLikePath(path: string): boolean {
  return /[./~]/.test(path);
}

/**
 * The [start, end) ranges of the code spans and fenced blocks of `text`: a run of backticks up
 * to the next run of the same length (Markdown's rule); an unclosed run is plain text.
 */
export function codeRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const runs = /`+/g;
  for (let open = runs.exec(text); open; open = runs.exec(text)) {
    const fence = open[0];
    const closing = new RegExp(`(?<!\`)${fence}(?!\`)`, "g");
    closing.lastIndex = open.index + fence.length;
    const close = closing.exec(text);
    if (!close) continue;
    ranges.push([open.index, close.index + fence.length]);
    runs.lastIndex = close.index + fence.length;
  }
  return ranges;
}
