/**
 * Tells a press of the Esc key from the escape sequences other keys send (an arrow key is
 * `ESC [ A`): an ESC that starts no sequence and that no other byte follows within a short wait
 * is the Esc key, as terminal programs commonly decide it.
 */

const ESC = "\x1b";
/** How long an ESC at the end of the input waits for the rest of a sequence. */
const ESCAPE_WAIT_MS = 50;

/** Where the keys go: text (sequences included, in order), and each Esc press. */
export interface EscapeSink {
  keys(text: string): void;
  escape(): void;
}

/** Splits raw terminal input into keys and Esc presses. */
export class LoneEscape {
  #sink: EscapeSink;
  #waitMs: number;
  /** The start of a sequence that the next chunk may finish. */
  #held = "";
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(sink: EscapeSink, waitMs = ESCAPE_WAIT_MS) {
    this.#sink = sink;
    this.#waitMs = waitMs;
  }

  /** Whether input is held back waiting for the rest of a sequence. */
  get holding(): boolean {
    return this.#held !== "";
  }

  /** Takes one chunk of input as read from the terminal. */
  push(chunk: string): void {
    clearTimeout(this.#timer);
    let text = this.#held + chunk;
    this.#held = "";
    let plain = "";
    while (text !== "") {
      const at = text.indexOf(ESC);
      if (at === -1) {
        plain += text;
        break;
      }
      plain += text.slice(0, at);
      text = text.slice(at);
      const length = sequenceLength(text);
      if (length === undefined) {
        // Unfinished: the next chunk may complete it, or the wait ends it.
        this.#held = text;
        break;
      }
      if (length === 0) {
        this.#flush(plain);
        plain = "";
        this.#sink.escape();
        text = text.slice(1);
        continue;
      }
      plain += text.slice(0, length);
      text = text.slice(length);
    }
    this.#flush(plain);
    if (this.#held) this.#timer = setTimeout(() => this.#expire(), this.#waitMs);
  }

  /** Stops waiting: whatever is held goes out as it is. */
  close(): void {
    clearTimeout(this.#timer);
    this.#held = "";
  }

  #expire(): void {
    const held = this.#held;
    this.#held = "";
    if (held === ESC) return this.#sink.escape();
    this.#flush(held);
  }

  #flush(text: string): void {
    if (text) this.#sink.keys(text);
  }
}

/**
 * The length of the sequence at the start of `text` (which starts with ESC): 0 when the ESC is
 * a key of its own (another ESC follows), undefined when the text ends before the sequence does.
 */
export function sequenceLength(text: string): number | undefined {
  if (text.length < 2) return undefined;
  const next = text[1];
  if (next === ESC) return 0;
  if (next === "[") {
    // CSI: parameter and intermediate bytes, then one final byte in @..~.
    for (let i = 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i + 1;
      if (code < 0x20 || code > 0x3f) return i;
    }
    return undefined;
  }
  // SS3 (`ESC O A`, arrows in application mode) is three bytes; Alt+key is two.
  if (next === "O") return text.length < 3 ? undefined : 3;
  return 2;
}
