import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import { Transcript } from "./render.ts";
import { until } from "../../../tests/e2e/_poll.ts";

Deno.test("Transcript draws the status line under the spinner, cut to the width", async () => {
  let written = "";
  const t = new Transcript({
    write: (text) => written += text,
    style: makeStyle(false),
    spinner: true,
    hideReasoning: false,
    columns: () => 30,
  });
  t.setStatusLine("gpt-4.1 · native · 75% context · 7.0k in / 500 out");
  t.handle({ type: "model_request", index: 0 });
  await until("the 75% status", () => written.includes("75% conte"));
  t.stopSpinner();
  const frame = written.slice(0, written.indexOf("\r\x1b[J", 1));
  const [spinner, below] = frame.split("\n");
  assert.match(spinner, /waiting for the model \(\d+s · Esc to stop\)$/);
  assert.equal(below, "gpt-4.1 · native · 75% conte…\x1b[1A\r");
  assert.ok(written.endsWith("\r\x1b[J"), "stopping the spinner erases the line under it too");
});
