/**
 * The model's answer as the transcript writes it: rendered Markdown on a terminal that shows
 * colors, else exactly the model's text. The renderer (`markdown.ts`) takes a quarter of a
 * second to load, so it loads on first use, not at the REPL's start; text that arrives while it
 * loads waits for it, and an answer that ends before it is there is shown as written.
 */
import { terminalText } from "../../approval/visible.ts";
import type { MarkdownRenderer, MarkdownStream } from "./markdown.ts";

type Markdown = { render: MarkdownRenderer; Stream: typeof MarkdownStream };

/** One answer at a time, streamed; `end()` finishes the current one. */
export class AnswerText {
  #enabled: boolean;
  #columns: (() => number) | undefined;
  #loading: Promise<void> | undefined;
  #markdown: Markdown | undefined;
  #stream: MarkdownStream | undefined;
  /** Text of the current answer that came while the renderer was loading. */
  #early = "";

  /** `markdown`: render Markdown; `columns`: the terminal's width. */
  constructor(markdown: boolean, columns?: () => number) {
    this.#enabled = markdown;
    this.#columns = columns;
  }

  /** Loads the renderer (once); resolves when it is there, or known to be off. */
  ready(): Promise<void> {
    if (!this.#enabled) return Promise.resolve();
    this.#loading ??= import("./markdown.ts").then(
      (m) => {
        const render = m.terminalMarkdown({ columns: this.#columns });
        this.#markdown = { render, Stream: m.MarkdownStream };
      },
      // Without the renderer, answers are shown as the model wrote them.
      () => void (this.#enabled = false),
    );
    return this.#loading;
  }

  /** The next piece of the answer; returns what to write now. */
  push(text: string): string {
    if (!this.#enabled) return terminalText(text);
    if (!this.#markdown) {
      void this.ready();
      this.#early += text;
      return "";
    }
    this.#stream ??= new this.#markdown.Stream(this.#markdown.render);
    const early = this.#early;
    this.#early = "";
    return this.#stream.push(early + text);
  }

  /** What is left of the current answer; it ends there. */
  end(): string {
    // The renderer may have come after the last piece did.
    const shown = this.#markdown && this.#early ? this.push("") : "";
    const rest = this.#stream ? this.#stream.end() : terminalText(this.#early);
    this.#early = "";
    this.#stream = undefined;
    return shown + rest;
  }

  /** A whole answer that was not streamed, without a trailing newline. */
  whole(text: string): string {
    this.end();
    return (this.push(text) + this.end()).replace(/\n+$/, "");
  }
}
