/** Transcripts for the rendering tests: what one writes, kept as text. */
import { makeStyle } from "../term/progress.ts";
import { Transcript, type TranscriptOptions } from "./render.ts";

/** A transcript with colors on and no spinner unless `opts` says otherwise; `out()` is all it wrote. */
export function testTranscript(opts: Partial<TranscriptOptions> = {}) {
  let written = "";
  const t = new Transcript({
    write: (text) => written += text,
    style: makeStyle(true),
    spinner: false,
    hideReasoning: false,
    ...opts,
  });
  return { t, out: () => written };
}

/** Waits until `done()` holds (a spinner frame drawn, say), failing after 5 s. */
export async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the spinner");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
