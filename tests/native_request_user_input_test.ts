/**
 * Codex's `request_user_input` in the native harness, through real sessions against the scripted
 * provider: the classic tool (gpt-5-codex) and code mode's `functions.request_user_input` and
 * `functions.request_user_input_async` (gpt-6.2-sol) reach the session's `askUser` and return
 * Codex's JSON of answers by question id; a session where nobody can answer (exec) sends none of
 * them; and the classic declaration matches the Codex capture.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openSession } from "../lib/session/open.ts";
import type { SessionIO } from "../lib/session/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";
import { capturedSchema, type CaptureFile, schemaDiff } from "./_capture_compare.ts";

type Json = Record<string, unknown>;
type AskUser = NonNullable<SessionIO["askUser"]>;

const CAPTURE = fileURLToPath(
  new URL("./fixtures/captures/codex.gpt5codex.tools.json", import.meta.url),
);

const DB_QUESTION = {
  questions: [{
    id: "database",
    header: "DB",
    question: "Which database?",
    options: [
      { label: "postgres", description: "a server" },
      { label: "sqlite", description: "a file" },
    ],
  }],
};

async function turn(script: ScriptTurn[], model: string, askUser?: AskUser) {
  await using fake = startFakeProvider(script);
  await using ws = await requestWorkspace({
    prefix: "oi_request_user_input_",
    files: { "main.py": "print('hi')\n" },
    branch: "",
    commit: false,
    model,
    wire: "responses",
    baseUrl: fake.baseUrl,
    gitEnv: {},
  });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "read-only", approval: "never" },
    { onEvent: () => {}, ...(askUser ? { askUser } : {}) },
    { env: ws.env },
  );
  const outcome = await session.prompt("set up storage", new AbortController().signal);
  return { outcome, requests: fake.requests.map((r) => r.body as Json), failures: fake.failures };
}

/** The tools of a request: top-level ones, or those of code mode's namespaces as `ns.name`. */
function toolNames(body: Json): string[] {
  if (Array.isArray(body.tools)) return (body.tools as Json[]).map((t) => String(t.name));
  const item = (body.input as Json[])[0];
  return ((item.tools ?? []) as Json[]).flatMap((ns) =>
    (ns.tools as Json[]).map((t) => `${ns.name}.${t.name}`)
  );
}

function lastOutput(body: Json): string {
  return String(((body.input as Json[]).at(-1) as Json).output);
}

Deno.test("native request_user_input asks the user and returns Codex's answers by id", async () => {
  const asked: unknown[] = [];
  const { outcome, requests, failures } = await turn(
    [
      { reply: { tool_calls: [{ name: "request_user_input", args: DB_QUESTION }] } },
      { reply: { text: "Using sqlite." } },
    ],
    "gpt-5-codex",
    (questions, meta) => {
      asked.push({ questions, callId: typeof meta.callId });
      return Promise.resolve([{ id: "database", answers: ["sqlite"] }]);
    },
  );
  assert.equal(outcome.status, "completed", JSON.stringify({ outcome, failures }));
  assert.ok(toolNames(requests[0]).includes("request_user_input"));
  assert.deepEqual(asked, [{
    questions: [{ ...DB_QUESTION.questions[0], multiSelect: false }],
    callId: "string",
  }]);
  assert.equal(lastOutput(requests[1]), '{"answers":{"database":{"answers":["sqlite"]}}}');
});

Deno.test("native request_user_input says so when the user dismisses the questions", async () => {
  const { requests } = await turn(
    [
      { reply: { tool_calls: [{ name: "request_user_input", args: DB_QUESTION }] } },
      { reply: { text: "Going on." } },
    ],
    "gpt-5-codex",
    () => Promise.resolve(null),
  );
  assert.match(lastOutput(requests[1]), /^The user declined to answer/);
});

Deno.test("native code mode sends both question tools in functions and answers them", async () => {
  const answers: string[][] = [];
  const { outcome, requests, failures } = await turn(
    [
      {
        reply: {
          tool_calls: [{ name: "request_user_input", namespace: "functions", args: DB_QUESTION }],
        },
      },
      {
        reply: {
          tool_calls: [{
            name: "request_user_input_async",
            namespace: "functions",
            args: { questions: [{ title: "Which branch?", options: ["main", "dev"] }] },
          }],
        },
      },
      { reply: { text: "OK" } },
    ],
    "gpt-6.2-sol",
    (questions) => {
      answers.push(questions.map((q) => `${q.id}:${q.question}:${q.options.map((o) => o.label)}`));
      return Promise.resolve(questions.map((q) => ({ id: q.id, answers: [q.options[1].label] })));
    },
  );
  assert.equal(outcome.status, "completed", JSON.stringify({ outcome, failures }));
  const names = toolNames(requests[0]);
  assert.ok(names.includes("functions.request_user_input"), names.join(", "));
  assert.ok(names.includes("functions.request_user_input_async"), names.join(", "));
  const exec = ((requests[0].input as Json[])[0].tools as Json[])
    .flatMap((ns) => ns.tools as Json[]).find((t) => t.name === "exec")!;
  assert.doesNotMatch(String(exec.description), /request_user_input/, "not also a nested tool");
  assert.deepEqual(answers, [
    ["database:Which database?:postgres,sqlite"],
    ["q1:Which branch?:main,dev"],
  ]);
  assert.equal(lastOutput(requests[1]), '{"answers":{"database":{"answers":["sqlite"]}}}');
  assert.equal(lastOutput(requests[2]), '{"answers":{"q1":{"answers":["dev"]}}}');
});

Deno.test("native sends no question tool where nobody can answer, in classic and code mode", async () => {
  for (const model of ["gpt-5-codex", "gpt-6.2-sol"]) {
    const { requests } = await turn([{ reply: { text: "OK" } }], model);
    const names = toolNames(requests[0]);
    assert.ok(names.length > 0, `${model}: the request has tools`);
    assert.deepEqual(names.filter((n) => n.includes("request_user_input")), [], model);
  }
});

Deno.test("native request_user_input is sent with the captured schema", async () => {
  const cap: CaptureFile = JSON.parse(await Deno.readTextFile(CAPTURE));
  const { requests } = await turn(
    [{ reply: { text: "OK" } }],
    "gpt-5-codex",
    () => Promise.resolve(null),
  );
  const sent = (requests[0].tools as Json[]).find((t) => t.name === "request_user_input")!;
  const captured = cap.tools.find((t) => t.name === "request_user_input")!;
  assert.deepEqual(schemaDiff(sent.parameters as Json, capturedSchema(captured)), []);
});
