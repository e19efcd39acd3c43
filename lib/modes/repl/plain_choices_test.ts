import assert from "node:assert/strict";
import { parseAnswer } from "../term/approval_answer.ts";
import { makeStyle } from "../term/style.ts";
import { numberedApproval, numberedYes, pickNumbered } from "./plain_choices.ts";

/** A choice's IO answering `typed` in turn (then end of input); `shown` is all it printed. */
function scripted(typed: string[]) {
  const shown: string[] = [];
  const prompts: string[] = [];
  return {
    shown,
    prompts,
    io: {
      print: (lines: string[]) => void shown.push(...lines),
      read: (prompt: string) => {
        prompts.push(prompt);
        return Promise.resolve(typed.shift() ?? null);
      },
    },
  };
}

Deno.test("numberedApproval: 1 is once, 2 the session, 3 no with the note after it", async () => {
  const once = scripted(["1"]);
  assert.deepEqual(parseAnswer(await numberedApproval(once.io)), { answer: "once" });
  assert.deepEqual(once.shown, [
    "  1) yes once",
    "  2) yes for this session",
    "  3) no (a note may follow)",
  ]);
  assert.deepEqual(once.prompts, ["Answer with a number › "]);
  const session = scripted([" 2 "]);
  assert.deepEqual(parseAnswer(await numberedApproval(session.io)), { answer: "session" });
  const no = scripted(["3 use make check instead"]);
  assert.deepEqual(parseAnswer(await numberedApproval(no.io)), {
    answer: "deny",
    note: "use make check instead",
  });
  const letters = scripted(["y"]);
  assert.deepEqual(parseAnswer(await numberedApproval(letters.io)), { answer: "once" });
});

Deno.test("numberedApproval asks again after a wrong number; Enter or end of input is no", async () => {
  const wrong = scripted(["7", "1 and more", "2"]);
  assert.deepEqual(parseAnswer(await numberedApproval(wrong.io)), { answer: "session" });
  assert.equal(
    wrong.shown.filter((l) => l.startsWith("Type a number from 1 to 3 and Enter")).length,
    2,
  );
  assert.equal(wrong.prompts.length, 3);
  assert.deepEqual(parseAnswer(await numberedApproval(scripted([""]).io)), { answer: "deny" });
  assert.deepEqual(parseAnswer(await numberedApproval(scripted([]).io)), { answer: "deny" });
});

Deno.test("numberedYes: 1 or yes is yes; 2, Enter and end of input are no", async () => {
  const opts = { question: "Trust them?", yes: "yes, trust them", no: "no, leave them off" };
  const one = scripted(["1"]);
  assert.equal(await numberedYes(one.io, opts), true);
  assert.deepEqual(one.shown, ["Trust them?", "  1) yes, trust them", "  2) no, leave them off"]);
  assert.equal(await numberedYes(scripted(["yes"]).io, opts), true);
  assert.equal(await numberedYes(scripted(["2"]).io, opts), false);
  assert.equal(await numberedYes(scripted([""]).io, opts), false);
  assert.equal(await numberedYes(scripted([]).io, opts), false);
});

Deno.test("pickNumbered lists the rows with their details and gives the value of the one typed", async () => {
  const items = [
    { label: "fake/a", detail: "in use · A", value: "a" },
    { label: "fake/b", value: "b" },
  ];
  const opts = { title: "Model", items, style: makeStyle(false) };
  const picked = scripted(["0", "2"]);
  assert.equal(await pickNumbered(opts, picked.io), "b");
  assert.deepEqual(picked.shown.slice(0, 3), ["Model:", "  1) fake/a — in use · A", "  2) fake/b"]);
  assert.deepEqual(picked.prompts, Array(2).fill("Model: a number (Enter cancels) › "));
  assert.equal(await pickNumbered(opts, scripted([""]).io), undefined);
  assert.equal(await pickNumbered(opts, scripted([]).io), undefined);
});
