import assert from "node:assert/strict";
import { choose, pickerQuestion, readAnswer } from "./choose.ts";
import { contestantsOf } from "./plan.ts";

const contestants = contestantsOf(["native", "minimal", "claude-code"].map((harness) => ({
  harness,
  model: "m",
})));

Deno.test("the picker's question names every answer, and continue only for the REPL's handoff", () => {
  assert.equal(
    pickerQuestion(contestants, false),
    "Apply which? [a-c] · diff X to see X's diff · none ",
  );
  assert.match(pickerQuestion(contestants, true), /· none · continue with X $/);
});

Deno.test("readAnswer reads a letter, a number, diff X, none, an empty line and continue with X", () => {
  const read = (text: string, handoff = false) => readAnswer(text, contestants, handoff);
  assert.deepEqual(read(" B "), { kind: "apply", label: "b" });
  assert.deepEqual(read("3"), { kind: "apply", label: "c" });
  assert.deepEqual(read("diff a"), { kind: "diff", label: "a" });
  assert.deepEqual(read("none"), { kind: "none" });
  assert.deepEqual(read(""), { kind: "none" });
  assert.deepEqual(read("continue with b", true), { kind: "continue", label: "b" });
  assert.deepEqual(read("continue c", true), { kind: "continue", label: "c" });
  assert.equal(read("continue with b").kind, "unclear");
  assert.equal(read("d").kind, "unclear");
  assert.equal(read("diff").kind, "unclear");
  assert.equal(read("apply it all").kind, "unclear");
});

Deno.test("choose shows a diff, explains an unclear answer and asks again until a choice; the end of input is none", async () => {
  const asked: string[] = [];
  const said: string[] = [];
  const shown: string[] = [];
  const ioWith = (answers: Array<string | null>) => ({
    ask: (question: string) => {
      asked.push(question);
      return Promise.resolve(answers.shift() ?? null);
    },
    showDiff: (label: string) => {
      shown.push(label);
      return Promise.resolve();
    },
    say: (line: string) => said.push(line),
  });
  const choice = await choose(contestants, {
    handoff: true,
    io: ioWith(["diff b", "x", "continue with b"]),
  });
  assert.deepEqual(choice, { label: "b", continue: true });
  assert.deepEqual(shown, ["b"]);
  assert.equal(asked.length, 3);
  assert.match(said[0], /^Answer a letter a-c, a number, diff X, none or continue with X$/);
  assert.deepEqual(await choose(contestants, { handoff: false, io: ioWith([null]) }), {
    continue: false,
  });
});
