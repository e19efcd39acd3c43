import assert from "node:assert/strict";
import { progressLines } from "./progress.ts";
import { makeStyle } from "./style.ts";

Deno.test("progressLines() says Reconnecting (n/N) with the wait and the reason", () => {
  const lines = progressLines({
    type: "retry",
    attempt: 1,
    maxRetries: 2,
    delayMs: 512,
    reason: "The stream from OpenAI was interrupted: the connection was closed or reset",
    discarded: true,
  }, makeStyle(false));
  assert.deepEqual(lines, [
    "Reconnecting (1/2) in 512 ms: " +
    "The stream from OpenAI was interrupted: the connection was closed or reset",
  ]);
});
