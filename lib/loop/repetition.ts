/**
 * Runaway repetition inside one streamed reply: the text so far ends with the same span (at
 * least `minChars` long) `repeats` times in a row, exactly. Checked every `CHECK_EVERY` new
 * characters on a window of the latest text (once its last characters occur earlier, as they
 * must in a repetition), with the Z-function of the reversed window, which finds every period of
 * the window's end in one linear pass.
 */

/** When a reply counts as repeating itself; `repeats` of 0 never does. */
export interface SpanLimits {
  /** Times in a row the span must occur. */
  repeats: number;
  /** Shortest span that counts; a shorter one counts as its repeats joined up to this length. */
  minChars: number;
}

/** Longest span that is looked for. */
export const MAX_SPAN_CHARS = 2000;
/** New characters between two checks. */
const CHECK_EVERY = 128;

/** A repetition found at the end of a text. */
export interface RepeatedSpan {
  /** The shortest unit that repeats, as it first occurs. */
  span: string;
  /** Whole times the unit occurs in a row at the end of the text. */
  repeats: number;
  /** Where the repetition starts in the text (counted from the first character pushed). */
  start: number;
}

/** Watches one stream of text (a reply's text or its reasoning) for runaway repetition. */
export class RepetitionDetector {
  readonly #limits: SpanLimits;
  readonly #window: number;
  #text = "";
  /** Characters dropped from the front of `#text`. */
  #dropped = 0;
  #unchecked = 0;

  constructor(limits: SpanLimits) {
    this.#limits = limits;
    this.#window = (limits.repeats + 1) * MAX_SPAN_CHARS + CHECK_EVERY;
  }

  /** Takes the next piece of text; returns the repetition once the text runs away. */
  push(text: string): RepeatedSpan | undefined {
    if (this.#limits.repeats === 0 || text === "") return undefined;
    this.#text += text;
    this.#unchecked += text.length;
    if (this.#text.length > 2 * this.#window) {
      const cut = this.#text.length - this.#window;
      this.#text = this.#text.slice(cut);
      this.#dropped += cut;
    }
    if (this.#unchecked < CHECK_EVERY) return undefined;
    this.#unchecked = 0;
    if (!this.#endRecurs()) return undefined;
    const tail = this.#text.slice(-this.#window);
    const found = findRepeatedSpan(tail, this.#limits);
    if (!found) return undefined;
    return { ...found, start: found.start + this.#dropped + this.#text.length - tail.length };
  }

  /** Whether the last `minChars` characters occur earlier, within a span: a repetition needs it. */
  #endRecurs(): boolean {
    const size = Math.max(1, this.#limits.minChars);
    const recent = this.#text.slice(-(MAX_SPAN_CHARS + size));
    return recent.lastIndexOf(recent.slice(-size), recent.length - size - 1) >= 0;
  }

  /** Forgets the text so far (the reply starts over). */
  reset(): void {
    this.#text = "";
    this.#dropped = 0;
    this.#unchecked = 0;
  }
}

/**
 * The repetition `text` ends with, if its shortest span of at least `minChars` characters (up to
 * `MAX_SPAN_CHARS`) occurs `repeats` times in a row there; `start` is an index into `text`.
 */
export function findRepeatedSpan(text: string, limits: SpanLimits): RepeatedSpan | undefined {
  const { repeats, minChars } = limits;
  const n = text.length;
  if (repeats < 2 || n < repeats * minChars) return undefined;
  const z = reversedZ(text);
  const longest = Math.min(MAX_SPAN_CHARS, Math.floor(n / repeats));
  for (let length = Math.max(1, minChars); length <= longest; length++) {
    if (z[length] < (repeats - 1) * length) continue;
    // The end of the text repeats with this period over `region` characters.
    const region = Math.min(n, z[length] + length);
    let unit = 1;
    while (z[unit] < region - unit) unit++;
    const start = n - region + naturalShift(text, n - region, unit);
    return {
      span: text.slice(start, start + unit),
      repeats: Math.floor((n - start) / unit),
      start,
    };
  }
  return undefined;
}

/**
 * How far into a repetition starting at `start` a copy of the unit starts at a line, else a word:
 * the repetition of "code. I think. I think." starts at ". I", its unit reads better as "I think. ".
 */
function naturalShift(text: string, start: number, unit: number): number {
  const startsHere = (k: number, after: RegExp) =>
    (start + k === 0 || after.test(text[start + k - 1])) && /\S/.test(text[start + k]);
  for (const after of [/\n/, /\s/]) {
    for (let k = 0; k < unit; k++) if (startsHere(k, after)) return k;
  }
  return 0;
}

/**
 * The Z-function of `text` reversed: `z[i]` is how many characters before the last `i` match the
 * text's end, so the end of `text` repeats with period `i` over `z[i] + i` characters.
 */
function reversedZ(text: string): Int32Array {
  const n = text.length;
  const at = (i: number) => text.charCodeAt(n - 1 - i);
  const z = new Int32Array(n + 1);
  z[0] = n;
  let left = 0;
  let right = 0;
  for (let i = 1; i < n; i++) {
    let k = i < right ? Math.min(right - i, z[i - left]) : 0;
    while (i + k < n && at(k) === at(i + k)) k++;
    z[i] = k;
    if (i + k > right) [left, right] = [i, i + k];
  }
  return z;
}
