import assert from "node:assert/strict";
import { promptly } from "../../approval/_test_wait.ts";
import { until } from "../../../tests/e2e/_poll.ts";
import type { UserQuestion } from "../../tools/ask_user.ts";
import { makeStyle } from "../term/style.ts";
import { replAskUser } from "./ask_user.ts";

const QUESTIONS: UserQuestion[] = [
  {
    id: "q1",
    question: "Which database?",
    header: "DB",
    options: [{ label: "sqlite", description: "" }, { label: "postgres", description: "" }],
    multiSelect: false,
  },
  { id: "q2", question: "Port?", header: "", options: [], multiSelect: false },
];

/** `replAskUser` over a fake input: `typed` lines answer in turn; then a read waits forever. */
function replQuestions(typed: string[]) {
  const printed: string[] = [];
  const reads: AbortSignal[] = [];
  const ask = replAskUser((lines) => printed.push(...lines), (_prompt, signal) => {
    reads.push(signal);
    const line = typed.shift();
    return line === undefined ? new Promise(() => {}) : Promise.resolve(line);
  }, makeStyle(false));
  return { ask, printed, reads };
}

Deno.test("replAskUser() reads one answer per question", async () => {
  const { ask } = replQuestions(["2", "5432"]);
  const answers = await ask(QUESTIONS, { callId: "c1" }, new AbortController().signal);
  assert.deepEqual(answers, [{ id: "q1", answers: ["postgres"] }, { id: "q2", answers: ["5432"] }]);
});

Deno.test("replAskUser() withdraws the questions when the turn is cancelled", async () => {
  const { ask, printed, reads } = replQuestions(["1"]);
  const turn = new AbortController();
  const answers = ask(QUESTIONS, { callId: "c1" }, turn.signal);
  await until("the second read", () => reads.length === 2);
  assert.equal(reads[1], turn.signal);
  turn.abort();
  await assert.rejects(promptly(answers), { name: "AbortError" });
  assert.equal(printed.at(-1), "withdrawn: the turn was cancelled");
});
