/**
 * Codex's code mode in the native harness (harnesses/native/CODE_MODE.md), through real sessions
 * against the scripted provider: the golden first and second requests of a gpt-6 model, and a
 * turn whose `exec` source calls a tool that the session's approvals ask about.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSession } from "../lib/session/open.ts";
import type { SessionIO } from "../lib/session/types.ts";
import type { ApprovalPolicy, SandboxMode } from "../lib/config/schema.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";

const GOLDEN = fileURLToPath(
  new URL("./golden/native/responses.code_mode.requests.json", import.meta.url),
);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";
type Json = Record<string, unknown>;

/** A git repository (so the workspace counts as trusted) with main.py, on the responses wire. */
function workspace(baseUrl: string, model: string) {
  return requestWorkspace({
    prefix: "oi_code_mode_",
    files: { "main.py": "print('hi')\n" },
    branch: "",
    commit: false,
    model,
    wire: "responses",
    baseUrl,
    gitEnv: {},
  });
}

async function turn(
  script: ScriptTurn[],
  opts: { sandbox: SandboxMode; approval: ApprovalPolicy; model?: string; io?: Partial<SessionIO> },
) {
  await using fake = startFakeProvider(script);
  const ws = await workspace(fake.baseUrl, opts.model ?? "gpt-6.2-sol");
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: opts.sandbox, approval: opts.approval },
    { onEvent: () => {}, ...opts.io },
    { env: ws.env },
  );
  const sessionId = session.status().sessionId ?? "";
  const outcome = await session.prompt("list the files", new AbortController().signal);
  return { outcome, requests: [...fake.requests], failures: fake.failures, ws, sessionId };
}

const EXEC_LS =
  'const r = await tools.exec_command({cmd: "ls"});\ntext(r.exit_code);\ntext(r.output);';

Deno.test("native code mode: the first and second requests of gpt-6.2-sol match the golden file", async () => {
  const { outcome, requests, failures, ws, sessionId } = await turn([
    { reply: { tool_calls: [{ id: "call_1", name: "exec", args: {}, input: EXEC_LS }] } },
    { reply: { text: "OK" } },
  ], { sandbox: "danger-full-access", approval: "never" });
  await using _ws = ws;
  assert.equal(outcome.status, "completed", JSON.stringify({ outcome, failures }));
  const [first, second] = requests.map((r) => ({
    headers: {
      "x-openai-internal-codex-responses-lite": r.headers["x-openai-internal-codex-responses-lite"],
    },
    body: normalized(
      r.body,
      (text) => text.replaceAll(ws.root, "<root>").replaceAll(sessionId, "<session>"),
    ),
  }));
  const body = first.body as Json;
  assert.equal(body.tools, undefined, "no top-level tools in code mode");
  const item = (body.input as Json[])[0];
  assert.equal(item.type, "additional_tools");
  const output = ((requests[1].body as Json).input as Json[]).at(-1)!;
  assert.equal(output.type, "custom_tool_call_output");
  const parts = output.output as Json[];
  assert.match(String(parts[0].text), /^Script completed\nWall time \d+\.\d seconds\nOutput:\n$/);
  assert.deepEqual(parts.slice(1).map((p) => p.text), ["0", "main.py\n"]);
  await checkGolden({ _source: "capture: codex 0.171.0 default model (code mode)", first, second });
});

Deno.test("native code mode: exec's nested calls go through the session's approvals", async () => {
  const source = [
    'await tools.exec_command({cmd: "touch approved.txt"});',
    "try {",
    '  await tools.exec_command({cmd: "touch denied.txt"});',
    "} catch (error) {",
    '  text("refused: " + error.message);',
    "}",
    'text("done");',
  ].join("\n");
  const asked: string[] = [];
  const { outcome, requests, failures, ws } = await turn([
    { reply: { tool_calls: [{ id: "call_1", name: "exec", args: {}, input: source }] } },
    { reply: { text: "OK" } },
  ], {
    sandbox: "workspace-write",
    approval: "untrusted",
    io: {
      approve: (req) => {
        asked.push(`${req.tool}: ${req.question.subject}`);
        return Promise.resolve(asked.length === 1 ? "once" : "deny");
      },
    },
  });
  await using _ws = ws;
  assert.equal(outcome.status, "completed", JSON.stringify({ outcome, failures }));
  assert.equal(
    asked.length,
    2,
    JSON.stringify([asked, (requests[1].body as Json).input]).slice(-1500),
  );
  assert.match(asked[0], /^exec_command: .*touch approved\.txt/);
  assert.match(asked[1], /touch denied\.txt/);
  assert.ok(await exists(join(ws.cwd, "approved.txt")), "the approved nested call ran");
  assert.ok(!await exists(join(ws.cwd, "denied.txt")), "the denied nested call did not run");
  const output = JSON.stringify((requests[1].body as Json).input);
  assert.match(output, /Script completed/);
  assert.match(output, /refused: /);
  assert.match(output, /"done"/);
});

Deno.test("native code mode: gpt-5-codex keeps the classic tools", async () => {
  const { requests, ws } = await turn([{ reply: { text: "OK" } }], {
    sandbox: "danger-full-access",
    approval: "never",
    model: "gpt-5-codex",
  });
  await using _ws = ws;
  const body = requests[0].body as Json;
  assert.ok(Array.isArray(body.tools));
  assert.equal((body.input as Json[])[0].type, "message");
  assert.equal(body.parallel_tool_calls, true);
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The body with paths and the session id replaced, and long strings as a length. */
function normalized(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === "string") {
    const text = replace(value).replace(/Wall time \d+\.\d seconds/g, "Wall time <s> seconds");
    return text.length <= 1500 ? text : `${text.slice(0, 200)}… [${text.length} chars]`;
  }
  if (Array.isArray(value)) return value.map((v) => normalized(v, replace));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, normalized(v, replace)]),
    );
  }
  return value;
}

async function checkGolden(value: unknown): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (UPDATE) return await Deno.writeTextFile(GOLDEN, text);
  const golden = await Deno.readTextFile(GOLDEN).catch(() => undefined);
  assert.ok(
    golden !== undefined,
    "tests/golden/native/responses.code_mode.requests.json is missing",
  );
  assert.equal(text, golden, "the code-mode golden requests changed: check, then UPDATE_GOLDEN=1");
}

Deno.test("native code mode: a direct call to a nested tool is an unknown tool", async () => {
  const { outcome, requests, ws } = await turn([
    { reply: { tool_calls: [{ id: "call_1", name: "exec_command", args: { cmd: "ls" } }] } },
    { reply: { text: "OK" } },
  ], { sandbox: "danger-full-access", approval: "never" });
  await using _ws = ws;
  assert.equal(outcome.status, "completed");
  const output = ((requests[1].body as Json).input as Json[]).at(-1)!;
  assert.equal(output.type, "function_call_output");
  assert.equal(output.output, "unsupported call: exec_command");
});

Deno.test("native code mode: /model to a gpt-6 model switches to code mode, and back", async () => {
  await using fake = startFakeProvider([{ reply: { text: "A" } }, { reply: { text: "B" } }, {
    reply: { text: "C" },
  }]);
  await using ws = await workspace(fake.baseUrl, "gpt-5-codex");
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const signal = new AbortController().signal;
  await session.prompt("one", signal);
  await session.configure({ model: "gpt-6.2-sol" });
  await session.prompt("two", signal);
  await session.configure({ model: "gpt-5-codex" });
  await session.prompt("three", signal);
  const shapes = fake.requests.map((r) => {
    const body = r.body as Json;
    return Array.isArray(body.tools) ? "classic" : (body.input as Json[])[0].type;
  });
  assert.deepEqual(shapes, ["classic", "additional_tools", "classic"]);
});
