/**
 * The one rule for writing text we did not write (a command's output, the model's text, a file's
 * contents, a server's model names) to a terminal: control characters and bidirectional overrides
 * are written as `\u{…}` escapes, so the text cannot move the cursor, clear the screen, set the
 * title or the clipboard, or reorder what the user reads. Our own styling is added after.
 * It lives here, the lowest layer both approval prompts and the front ends may import.
 */

/** C0 controls but tab and newline, DEL, C1 controls, and bidirectional marks and overrides. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const HIDDEN = /[\0-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with control characters (but newline and tab) and bidirectional overrides written as
 * `\u{…}` escapes, so that a command (or the model's text) cannot redraw or reorder what the user
 * approves. Exact: a carriage return shows too. The result contains no such character, so
 * applying it twice changes nothing.
 */
export function visible(text: string): string {
  return text.replace(HIDDEN, (ch) => `\\u{${ch.charCodeAt(0).toString(16)}}`);
}

/** `visible()` for output to read rather than approve: Windows line ends become plain newlines. */
export function terminalText(text: string): string {
  return visible(text.replaceAll("\r\n", "\n"));
}

/**
 * `value` with `terminalText()` applied to every string in it, through arrays and plain objects
 * (an event, a status, a list of models); the parts that need no change are shared, not copied.
 */
export function terminalSafe<T>(value: T): T {
  return safeValue(value) as T;
}

function safeValue(value: unknown): unknown {
  if (typeof value === "string") return terminalText(value);
  if (Array.isArray(value)) {
    const safe = value.map(safeValue);
    return safe.some((item, i) => item !== value[i]) ? safe : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const safe = safeValue(item);
    if (safe !== item) (copy ??= { ...value })[key] = safe;
  }
  return copy ?? value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
