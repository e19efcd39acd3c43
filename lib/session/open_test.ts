import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import type { ApprovalQuestion } from "../approval/hook.ts";
import { sessionWorkspace } from "./_test_session.ts";
import {
  openSession,
  type SessionEvent,
  TurnInProgressError,
  UntrustedDirectoryError,
} from "./open.ts";

/** Event types in order, with runs of deltas folded into one. */
function sequence(events: SessionEvent[]): string[] {
  const types: string[] = [];
  for (const event of events) {
    const label = event.type === "tool_denied" || event.type === "approval_requested" ||
        event.type === "approval_resolved"
      ? `${event.type}:${event.callId}`
      : event.type;
    if (label === "text_delta" && types.at(-1) === label) continue;
    types.push(label);
  }
  return types;
}

Deno.test("a typical turn reports its events in this order, approvals and denials with the call id", async () => {
  await using fake = await startFakeProvider(parseScript([
    JSON.stringify({
      reply: {
        text: "Let me look.",
        tool_calls: [{ id: "call_1", name: "exec_command", args: { cmd: "touch made.txt" } }],
      },
    }),
    JSON.stringify({
      expect: { last_tool_result_contains: "refused" },
      reply: { text: "It was declined." },
    }),
  ].join("\n")));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const events: SessionEvent[] = [];
  const asked: ApprovalQuestion[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "untrusted" },
    {
      onEvent: (event) => events.push(event),
      approve: ({ question }) => (asked.push(question), Promise.resolve("deny")),
    },
    { env: ws.env },
  );
  const outcome = await session.prompt("make a file", new AbortController().signal);

  assert.deepEqual(outcome, { status: "completed", finalText: "It was declined." });
  assert.deepEqual(sequence(events), [
    "session_started",
    "warning",
    "model_request",
    "text_delta",
    "assistant_message",
    "tool_start",
    "approval_requested:call_1",
    "approval_resolved:call_1",
    "tool_denied:call_1",
    "tool_end",
    "model_request",
    "text_delta",
    "assistant_message",
    "turn_end",
  ]);
  assert.equal(asked[0].subject, "touch made.txt");
  const started = events[0];
  assert.equal(started.type === "session_started" && started.info.harness, "native");
  assert.deepEqual(fake.failures, []);
  await assert.rejects(() => Deno.stat(join(ws.cwd, "made.txt")), Deno.errors.NotFound);
});

Deno.test("switchHarness() keeps the history and sends the new harness's tools next", async () => {
  await using fake = await startFakeProvider(
    parseScript([
      JSON.stringify({
        reply: { tool_calls: [{ id: "call_1", name: "exec_command", args: { cmd: "echo hi" } }] },
      }),
      JSON.stringify({ reply: { text: "first" } }),
      JSON.stringify({
        expect: { tools_include: ["Bash"], user_contains: "again" },
        reply: { text: "second" },
      }),
    ].join("\n")),
    { allowTranslatedCalls: true },
  );
  await using ws = await sessionWorkspace(fake.baseUrl);
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access" },
    { onEvent: (event) => events.push(event) },
    { env: ws.env },
  );
  const signal = new AbortController().signal;
  await session.prompt("hello", signal);
  await session.switchHarness("claude-code");
  const outcome = await session.prompt("again", signal);
  assert.deepEqual(outcome, { status: "completed", finalText: "second" });
  assert.equal(session.info.harness, "claude-code");
  assert.ok(events.some((e) => e.type === "harness_switched" && e.harness === "claude-code"));
  const body = JSON.stringify(fake.requests[2].body);
  assert.match(body, /hello[^]*"Bash"[^]*echo hi[^]*first[^]*again/, "the earlier turn, as Bash");
  assert.doesNotMatch(body, /"name":"exec_command"/);
  assert.deepEqual(fake.failures, []);
});

Deno.test("a prompt() while a turn runs is refused with TurnInProgressError; the running turn is unharmed", async () => {
  await using fake = await startFakeProvider(
    [
      { expect: { user_contains: "first" }, reply: { text: "first done" } },
      { expect: { user_contains: "third" }, reply: { text: "third done" } },
    ],
    { chunkDelayMs: 20 },
  );
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const signal = new AbortController().signal;
  const running = session.prompt("first", signal);
  await assert.rejects(session.prompt("REFUSED-PROMPT", signal), (error: unknown) => {
    assert.ok(error instanceof TurnInProgressError);
    assert.match(error.message, /^Cannot start a turn while a turn is running in this session$/);
    assert.ok(error.hint);
    return true;
  });
  await assert.rejects(session.compact(signal), TurnInProgressError);
  assert.deepEqual(await running, { status: "completed", finalText: "first done" });
  // Once the turn has ended the next prompt runs, and the refused one left no trace.
  assert.deepEqual(await session.prompt("third", signal), {
    status: "completed",
    finalText: "third done",
  });
  assert.doesNotMatch(JSON.stringify(fake.requests[1].body), /REFUSED-PROMPT/);
  assert.deepEqual(fake.failures, []);
});

Deno.test("every session has an id from the start: an ephemeral one too, and it saves nothing", async () => {
  await using fake = await startFakeProvider([{ reply: { text: "ok" } }]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  const open = (ephemeral: boolean) =>
    openSession({ cwd: ws.cwd, ephemeral }, { onEvent: () => {} }, { env: ws.env });
  {
    await using ephemeral = await open(true);
    assert.match(ephemeral.id, UUID);
    assert.equal(ephemeral.status().sessionId, undefined, "/status says it is not saved");
    assert.equal((await ephemeral.prompt("hi", new AbortController().signal)).status, "completed");
  }
  await assert.rejects(Deno.stat(join(ws.home, "sessions")), Deno.errors.NotFound);
  {
    await using saved = await open(false);
    assert.match(saved.id, UUID);
    assert.equal(saved.id, saved.status().sessionId, "a saved session's id is its file's");
  }
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

Deno.test("openSession() refuses a directory outside a git repository unless told to skip the check", async () => {
  await using fake = await startFakeProvider([{ reply: { text: "ran" } }]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  const outside = await Deno.makeTempDir({ prefix: "oi_untrusted_" });
  try {
    await assert.rejects(
      openSession({ cwd: outside }, { onEvent: () => {} }, { env: ws.env }),
      (error: unknown) => {
        assert.ok(error instanceof UntrustedDirectoryError);
        assert.equal(error.cwd, outside);
        assert.match(error.message, /^Not inside a trusted directory/);
        return true;
      },
    );
    await using session = await openSession(
      { cwd: outside, skipGitRepoCheck: true },
      { onEvent: () => {} },
      { env: ws.env },
    );
    assert.equal((await session.prompt("go", new AbortController().signal)).status, "completed");
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});
