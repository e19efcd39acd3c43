/** Transcripts for the rendering tests: what one writes, kept as text. */
import { makeStyle } from "../term/style.ts";
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
