/**
 * Streamed text with tool-call markup held back: from the first place where a tool call written
 * as text may begin (`<tool_call>`, `[TOOL_CALLS]`, a fence opening on `{`), deltas wait until
 * the reply is complete, so front ends never show markup that tool-call repair then removes.
 */

const TAGS = ["<tool_call>", "[TOOL_CALLS]"];
const FENCE_CALL = /^```(?:json)?[ \t]*\n[ \t]*\{/i;
/** What a fence that may open on `{` looks like before its first line is complete. */
const FENCE_SO_FAR = /^(?:`{1,3}|```(?:j|js|jso|json)?[ \t]*(?:\n[ \t]*)?)$/i;

export class CallMarkupHoldback {
  #text = "";
  /** How much of `#text` went out. */
  #sent = 0;
  #holding = false;

  /** Takes one delta; returns what may be shown now. */
  push(delta: string): string {
    this.#text += delta;
    if (this.#holding) return "";
    const stop = this.#safeEnd();
    const out = this.#text.slice(this.#sent, stop);
    this.#sent = stop;
    return out;
  }

  /** At the end of the reply: what is left to show of `visible`, the reply's final text. */
  finish(visible: string): string {
    const shown = this.#text.slice(0, this.#sent);
    return visible.startsWith(shown) ? visible.slice(shown.length) : "";
  }

  /** Forgets a reply whose deltas were discarded (a retry streams it again). */
  reset(): void {
    this.#text = "";
    this.#sent = 0;
    this.#holding = false;
  }

  /** Where shown text must stop: before markup, or before what may still become markup. */
  #safeEnd(): number {
    const text = this.#text;
    for (let i = this.#sent; i < text.length; i++) {
      const c = text[i];
      if (c !== "<" && c !== "[" && c !== "`") continue;
      const rest = text.slice(i);
      if (TAGS.some((tag) => rest.startsWith(tag)) || FENCE_CALL.test(rest)) {
        this.#holding = true;
        return i;
      }
      if (TAGS.some((tag) => tag.startsWith(rest)) || FENCE_SO_FAR.test(rest)) return i;
    }
    return text.length;
  }
}
