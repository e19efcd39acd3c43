import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { LAUNCHER } from "../../tests/e2e/_harness_env.ts";
import { findSessions, readSession } from "../store/mod.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";
import { until } from "../../tests/e2e/_poll.ts";

const script = (turns: unknown[]) => parseScript(turns.map((t) => JSON.stringify(t)).join("\n"));
const tool = (id: string, cmd: string) => ({ id, name: "exec_command", args: { cmd } });

Deno.test("a session is saved as it goes and a resumed one carries the whole history", async () => {
  await using fake = await startFakeProvider(script([
    { reply: { tool_calls: [tool("call_1", "echo first-output")] } },
    { reply: { text: "first answer" } },
    { expect: { user_contains: "and now?" }, reply: { text: "second answer" } },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const open = (resume?: string) =>
    openSession(
      {
        cwd: ws.cwd,
        sandbox: "danger-full-access",
        origin: "repl",
        ...(resume ? { resume: { id: resume } } : {}),
      },
      { onEvent: () => {} },
      { env: ws.env },
    );
  let id: string | undefined;
  {
    await using session = await open();
    await session.prompt("the task", new AbortController().signal);
    id = session.status().sessionId;
  }
  const [saved] = await findSessions(ws.home, { cwd: ws.cwd });
  assert.equal(saved.id, id);
  const record = await readSession(saved.file);
  // The native harness's environment context is a user item of its own before the prompt; the
  // turn's checkpoint records (/undo, /rewind) come before and after it.
  assert.deepEqual(record.events.map((e) => e.type), [
    "checkpoint",
    "user_message",
    "user_message",
    "assistant_message",
    "tool_result",
    "assistant_message",
    "checkpoint",
  ]);

  await using resumed = await open(id);
  const outcome = await resumed.prompt("and now?", new AbortController().signal);
  assert.deepEqual(outcome, { status: "completed", finalText: "second answer" });
  const body = JSON.stringify(fake.requests[2].body);
  assert.match(body, /the task[^]*call_1[^]*first-output[^]*first answer[^]*and now\?/);
  assert.equal((await readSession(saved.file)).events.length, 11, "the same file goes on");
  assert.deepEqual(fake.failures, []);
});

Deno.test("a session killed mid-turn resumes with the task, the tool call and its result", async () => {
  await using fake = await startFakeProvider(script([
    { reply: { tool_calls: [tool("call_1", "echo $$ > started.txt; sleep 30")] } },
    {
      expect: { user_contains: "go on" },
      reply: { text: "resumed" },
    },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const child = new Deno.Command(LAUNCHER, {
    args: ["exec", "--yolo", "the long task"],
    cwd: ws.cwd,
    // The real HOME keeps Deno's module cache warm; a fresh one would fetch every package.
    env: { ...ws.env, HOME: Deno.env.get("HOME") ?? ws.env.HOME },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  await until(
    "the command to start",
    () => Deno.stat(join(ws.cwd, "started.txt")).then(() => true, () => false),
    15_000,
  );
  child.kill("SIGKILL");
  await child.status;
  // The killed agent could not stop its command's process group; the test does.
  try {
    Deno.kill(-Number(await Deno.readTextFile(join(ws.cwd, "started.txt"))), "SIGKILL");
  } catch { /* already gone */ }
  const [saved] = await findSessions(ws.home, { cwd: ws.cwd, origin: "exec" });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", resume: { id: saved.file } },
    { onEvent: () => {} },
    { env: ws.env },
  );
  assert.equal(
    (await session.prompt("go on", new AbortController().signal)).status,
    "completed",
  );
  const body = JSON.stringify(fake.requests[1].body);
  assert.match(body, /the long task[^]*call_1[^]*sleep 30[^]*go on/);
  assert.deepEqual(fake.failures, []);
});

Deno.test("a full context window compacts the history, and the session file records it", async () => {
  const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
  await using fake = await startFakeProvider(script([
    { reply: { tool_calls: [tool("call_1", "seq 1 400")], usage: usage(100, 5) } },
    {
      expect: { user_contains: "summary" },
      reply: { text: "SUMMARY: listed numbers", usage: usage(200, 7) },
    },
    { reply: { text: "done after compaction", usage: usage(300, 9) } },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl, "model_auto_compact_token_limit = 300");
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access" },
    { onEvent: (event) => events.push(event) },
    { env: ws.env },
  );
  const outcome = await session.prompt("count", new AbortController().signal);
  assert.deepEqual(outcome, { status: "completed", finalText: "done after compaction" });
  assert.ok(events.some((e) => e.type === "compacted"));
  const after = JSON.stringify(fake.requests[2].body);
  // The environment context opens the compacted history as it opened the conversation.
  assert.match(
    after,
    /environment_context[^]*Summary of the work so far[^]*SUMMARY: listed[^]*count/,
  );
  assert.doesNotMatch(after, /call_1/, "the compacted history replaced the tool call");
  const record = await readSession(session.status().sessionFile!);
  assert.ok(record.events.some((e) => e.type === "compaction"));
  assert.match(JSON.stringify(record.history), /^\[[^\]]*environment_context[^]*SUMMARY: listed/);
  // The summary request is paid for too: usage counts it beside the turn's own requests.
  assert.equal(session.usage.inputTokens, 600);
  assert.equal(session.usage.outputTokens, 21);
  assert.deepEqual(fake.failures, []);
});

Deno.test("a resumed session keeps its todo list: tool state is saved with the session", async () => {
  const todos = [{ content: "write the migration", status: "in_progress" }];
  await using fake = await startFakeProvider(script([
    { reply: { tool_calls: [{ id: "w1", name: "todo_write", args: { todos } }] } },
    { reply: { text: "planned" } },
    { reply: { tool_calls: [{ id: "r1", name: "todo_list", args: {} }] } },
    {
      expect: { last_tool_result_contains: "write the migration" },
      reply: { text: "still planned" },
    },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const open = (resume?: string) =>
    openSession(
      { cwd: ws.cwd, harness: "deepseek-tui", ...(resume ? { resume: { id: resume } } : {}) },
      { onEvent: () => {} },
      { env: ws.env },
    );
  let file: string | undefined;
  {
    await using first = await open();
    await first.prompt("plan it", new AbortController().signal);
    file = first.status().sessionFile;
  }
  assert.ok((await readSession(file!)).toolState, "the tool state is in the session file");
  await using second = await open(file);
  const outcome = await second.prompt("what is left?", new AbortController().signal);
  assert.deepEqual(outcome, { status: "completed", finalText: "still planned" });
  assert.deepEqual(fake.failures, []);
});
