/**
 * `text` with control characters (but newline and tab) and bidirectional overrides written as
 * `\u{…}` escapes, so that a command (or the model's text) cannot redraw or reorder what the user
 * approves.
 */
export function visible(text: string): string {
  return [...text].map((ch) => {
    const code = ch.codePointAt(0)!;
    return hidden(code) ? `\\u{${code.toString(16)}}` : ch;
  }).join("");
}

function hidden(code: number): boolean {
  if (code === 0x0a || code === 0x09) return false;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x061c || code === 0x200e ||
    code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}
