/**
 * Streamed text with tool-call markup held back: from the first place where a tool call written
 * as text may begin (a dialect's opening token, a fence opening on `{`, or a reply that opens
 * like a call), deltas wait until the reply is complete, so front ends never show markup that
 * tool-call repair then removes. The tokens are the repair's own (`dialects/mod.ts`).
 */
import { CALL_LEADS, CALL_TAGS, leadForm } from "./dialects/mod.ts";

const FENCE_CALL = /^```(?:json)?[ \t]*\n[ \t]*\{/i;
/** What a fence that may open on `{` looks like before its first line is complete. */
const FENCE_SO_FAR = /^(?:`{1,3}|```(?:j|js|jso|json)?[ \t]*(?:\n[ \t]*)?)$/i;
const FIRST_CHARS = new Set([...CALL_TAGS.map((tag) => tag[0]), "`"]);

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
    if (this.#sent === 0) {
      const lead = leadForm(text);
      if (CALL_LEADS.some((l) => lead.startsWith(l))) {
        this.#holding = true;
        return 0;
      }
      if (CALL_LEADS.some((l) => l.startsWith(lead))) return 0;
    }
    for (let i = this.#sent; i < text.length; i++) {
      if (!FIRST_CHARS.has(text[i])) continue;
      const rest = text.slice(i);
      if (CALL_TAGS.some((tag) => rest.startsWith(tag)) || FENCE_CALL.test(rest)) {
        this.#holding = true;
        return i;
      }
      if (CALL_TAGS.some((tag) => tag.startsWith(rest)) || FENCE_SO_FAR.test(rest)) return i;
    }
    return text.length;
  }
}
