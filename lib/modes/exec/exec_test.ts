import assert from "node:assert/strict";
import { answerText } from "./exec_turn.ts";

Deno.test("answerText() keeps a piped answer exact and shows it inert on a terminal", () => {
  const answer = "Done.\x1b]52;c;ZXZpbA==\x07\r\n";
  assert.equal(answerText(answer, false), answer);
  assert.equal(answerText(answer, true), "Done.\\u{1b}]52;c;ZXZpbA==\\u{7}\n");
});
