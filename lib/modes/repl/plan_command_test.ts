import assert from "node:assert/strict";
import type { ProposedPlan, Session } from "../../session/types.ts";
import { makeStyle } from "../term/style.ts";
import { PLAN_APPROVED, reviewPlan } from "./plan_command.ts";

/** The plan-mode part of a session, and the answers typed in turn; returns what was printed. */
async function review(answers: Array<string | null>, plan?: ProposedPlan) {
  let on = true;
  const session = {
    get planMode() {
      return on;
    },
    setPlanMode: (value: boolean) => (on = value),
    proposedPlan: () => plan,
  } as unknown as Session;
  const printed: string[] = [];
  const next = await reviewPlan({
    session,
    print: (lines) => printed.push(...lines),
    ask: (prompt) => (printed.push(prompt), Promise.resolve(answers.shift() ?? null)),
    style: makeStyle(false),
  });
  return { next, on, printed };
}

const PLAN: ProposedPlan = { steps: ["Read \x1b[2J it", "Fix it"], source: "answer" };

Deno.test("reviewPlan() numbers the plan and sends the approval on go, leaving plan mode", async () => {
  const { next, on, printed } = await review(["go"], PLAN);
  assert.equal(next, PLAN_APPROVED);
  assert.equal(on, false);
  assert.deepEqual(printed.slice(0, 3), ["Plan:", "  1. Read \\u{1b}[2J it", "  2. Fix it"]);
});

Deno.test("reviewPlan() sends an edit as the next planning prompt, typed inline or asked", async () => {
  assert.deepEqual((await review(["e use a map"], PLAN)).next, "use a map");
  const asked = await review(["edit", "split step 2"], PLAN);
  assert.equal(asked.next, "split step 2");
  assert.equal(asked.on, true);
  assert.ok(asked.printed.includes("what should change? › "));
});

Deno.test("reviewPlan() stops on s, Enter or end of input, and asks again on anything else", async () => {
  for (const answers of [["s"], [""], [null], ["e", ""]]) {
    const { next, on } = await review(answers, PLAN);
    assert.equal(next, undefined);
    assert.equal(on, true);
  }
  const { next, printed } = await review(["maybe", "g"], PLAN);
  assert.equal(next, PLAN_APPROVED);
  assert.ok(printed.some((line) => line.startsWith("Answer g (go")));
  assert.equal((await review(["g"])).next, undefined, "no plan, no question");
});

Deno.test("reviewPlan() in plain mode numbers the choices: 1 go, 2 edit with its text, 3 stop", async () => {
  const session = (on = true) =>
    ({
      get planMode() {
        return on;
      },
      setPlanMode: (value: boolean) => (on = value),
      proposedPlan: () => PLAN,
    }) as unknown as Session;
  const answer = async (typed: string[]) => {
    const printed: string[] = [];
    const next = await reviewPlan({
      session: session(),
      print: (lines) => printed.push(...lines),
      ask: (prompt) => (printed.push(prompt), Promise.resolve(typed.shift() ?? null)),
      style: makeStyle(false),
      term: { plainMode: true },
    });
    return { next, printed };
  };
  const go = await answer(["1"]);
  assert.equal(go.next, PLAN_APPROVED);
  assert.deepEqual(go.printed.slice(3), [
    "  1) go: carry it out",
    "  2) edit: say what to change",
    "  3) stop",
    "Answer with a number › ",
    "Plan mode off: carrying out the plan",
  ]);
  assert.equal((await answer(["2 use a map"])).next, "use a map");
  assert.equal((await answer(["3"])).next, undefined);
});
