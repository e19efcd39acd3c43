import assert from "node:assert/strict";
import { readAnswer } from "./go_on_question.ts";

const STEPS = { status: "step_limit", limit: 5 } as const;
const BUDGET = { status: "budget_limit", limit: 0.3, spent: 0.4 } as const;

Deno.test("readAnswer(): Enter and y take the suggested limit, y N and N a given one, n stops", () => {
  assert.deepEqual(readAnswer("", STEPS), { go: true, to: 10 });
  assert.deepEqual(readAnswer("Y", STEPS), { go: true, to: 10 });
  assert.deepEqual(readAnswer("yes 12", STEPS), { go: true, to: 12 });
  assert.deepEqual(readAnswer("7", STEPS), { go: true, to: 7 });
  assert.deepEqual(readAnswer("no", STEPS), { go: false });
  assert.deepEqual(readAnswer("", BUDGET), { go: true, to: 0.8 });
  assert.deepEqual(readAnswer("y $1.25", BUDGET), { go: true, to: 1.25 });
});

Deno.test("readAnswer(): anything else is an error naming what it takes", () => {
  const wrong = (text: string, outcome: typeof STEPS | typeof BUDGET) => {
    const read = readAnswer(text, outcome);
    assert.ok("error" in read, text);
    return read.error;
  };
  assert.match(wrong("2.5", STEPS), /"2\.5" is not a whole number of model requests/);
  assert.match(wrong("maybe", STEPS), /answer y, n, or a new limit/);
  assert.match(wrong("-1", BUDGET), /is not an amount in USD/);
  assert.match(wrong("0.35", BUDGET), /\$0\.35 is not above the \$0\.40 spent/);
});
