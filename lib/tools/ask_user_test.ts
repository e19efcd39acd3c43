import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import {
  DECLINED_MESSAGE,
  normalizeQuestions,
  NOT_AVAILABLE_MESSAGE,
  userAsk,
  type UserQuestion,
} from "./ask_user.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { promptly } from "../approval/_test_wait.ts";

/** Parses wire-shaped input the way dispatch does, then runs the capability. */
function ask(input: unknown, ctx: Parameters<typeof userAsk.run>[1]) {
  return userAsk.run(userAsk.input.parse(input), ctx);
}

Deno.test("userAsk() says nobody can answer when the context has no askUser", async () => {
  await using ws = await tempWorkspace();
  const out = await ask({ questions: [{ question: "Which port?" }] }, ws.ctx);
  assert.deepEqual(out, { answered: false, message: NOT_AVAILABLE_MESSAGE, answers: [] });
});

Deno.test("userAsk() passes normalised questions to askUser and returns the answers", async () => {
  await using ws = await tempWorkspace();
  const seen: UserQuestion[][] = [];
  const ctx = { ...ws.ctx, callId: "call_3" };
  ctx.askUser = (questions, meta, signal) => {
    assert.deepEqual(meta, { callId: "call_3" });
    assert.equal(signal, ws.ctx.signal);
    seen.push(questions);
    return Promise.resolve([{ id: "q2", answers: ["Both", "notes"] }, {
      id: "q1",
      answers: ["A"],
    }]);
  };
  const claude = {
    questions: [
      {
        question: "Pick a framework",
        header: "Framework",
        options: [{ label: "A", description: "first" }, { label: "B", description: "second" }],
        multiSelect: false,
      },
      {
        question: "Which targets?",
        header: "Targets",
        options: [{ label: "Web", description: "", preview: "<div/>" }, { label: "Both" }],
        multiSelect: true,
      },
    ],
    answers: {},
  };
  const out = await ask(claude, ctx);
  assert.deepEqual(seen[0][1], {
    id: "q2",
    question: "Which targets?",
    header: "Targets",
    options: [
      { label: "Web", description: "", preview: "<div/>" },
      { label: "Both", description: "" },
    ],
    multiSelect: true,
  });
  assert.equal(seen[0][0].multiSelect, false);
  assert.deepEqual(out, {
    answered: true,
    answers: [
      { id: "q1", question: "Pick a framework", header: "Framework", answers: ["A"] },
      { id: "q2", question: "Which targets?", header: "Targets", answers: ["Both", "notes"] },
    ],
  });
});

Deno.test("userAsk() reports a dismissed question set as not answered", async () => {
  await using ws = await tempWorkspace();
  ws.ctx.askUser = () => Promise.resolve(null);
  const out = await ask({ questions: [{ question: "Go on?" }] }, ws.ctx);
  assert.deepEqual(out, { answered: false, message: DECLINED_MESSAGE, answers: [] });
});

Deno.test("userAsk() withdraws its questions and ends as cancelled when the turn is", async () => {
  const turn = new AbortController();
  await using ws = await tempWorkspace({}, { signal: turn.signal });
  let asked: AbortSignal | undefined;
  // The front end never answers: only the turn's signal can end the wait.
  ws.ctx.askUser = (_questions, _meta, signal) => (asked = signal, new Promise(() => {}));
  const out = ask({ questions: [{ question: "Go on?" }] }, ws.ctx);
  assert.equal(asked, turn.signal);
  turn.abort();
  await assert.rejects(promptly(out), (error: Error) => {
    assert.equal(error.name, "AbortError");
    assert.match(error.message, /cancelled while the user was being asked/);
    return true;
  });
  await using fresh = await tempWorkspace();
  fresh.ctx.askUser = () => Promise.resolve([{ id: "q1", answers: ["yes"] }]);
  const answered = await ask({ questions: [{ question: "Go on?" }] }, fresh.ctx);
  assert.equal(answered.answered, true, "control: a turn that goes on gets its answer");
});

Deno.test("normalizeQuestions() merges Kimi and Codex spellings", () => {
  const kimi = userAsk.input.parse({
    questions: [{ question: "Deploy?", options: [{ label: "Yes" }], multi_select: true }],
  });
  assert.deepEqual(normalizeQuestions(kimi.questions), [
    {
      id: "q1",
      question: "Deploy?",
      header: "",
      options: [{ label: "Yes", description: "" }],
      multiSelect: true,
    },
  ]);
  const codex = userAsk.input.parse({
    questions: [{ id: "db", header: "DB", question: "Which database?", options: [] }],
  });
  assert.equal(normalizeQuestions(codex.questions)[0].id, "db");
  assert.equal(normalizeQuestions(codex.questions)[0].multiSelect, false);
});

Deno.test("normalizeQuestions() takes Codex's async form: a title and options as bare labels", () => {
  const async = userAsk.input.parse({
    questions: [{ title: "Which branch?", options: ["main", "dev"] }, { title: "Why?" }],
  });
  assert.deepEqual(normalizeQuestions(async.questions), [
    {
      id: "q1",
      question: "Which branch?",
      header: "",
      options: [{ label: "main", description: "" }, { label: "dev", description: "" }],
      multiSelect: false,
    },
    { id: "q2", question: "Why?", header: "", options: [], multiSelect: false },
  ]);
  assert.equal(
    userAsk.input.safeParse({ questions: [{ title: "T", options: [""] }] }).success,
    false,
  );
});

Deno.test("normalizeQuestions() throws ToolError for a repeated id", () => {
  const input = userAsk.input.parse({
    questions: [{ id: "x", question: "One?" }, { id: "x", question: "Two?" }],
  });
  assert.throws(
    () => normalizeQuestions(input.questions),
    (err) => err instanceof ToolError && /"x" is used twice/.test(err.message),
  );
});

Deno.test("userAsk input needs at least one question with text", () => {
  assert.equal(userAsk.input.safeParse({ questions: [] }).success, false);
  assert.equal(userAsk.input.safeParse({ questions: [{ question: "" }] }).success, false);
  assert.equal(userAsk.input.safeParse({ questions: [{ header: "H" }] }).success, false);
});
