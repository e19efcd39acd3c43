import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import type { ApprovalQuestion } from "../approval/hook.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";

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
  await using session = await openSession({
    cwd: ws.cwd,
    env: ws.env,
    settings: { config: [], sandbox: "danger-full-access", askForApproval: "untrusted" },
    io: {
      onEvent: (event) => events.push(event),
      approve: (question) => (asked.push(question), Promise.resolve("deny")),
    },
  });
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
  await using session = await openSession({
    cwd: ws.cwd,
    env: ws.env,
    settings: { config: [], sandbox: "danger-full-access" },
    io: { onEvent: (event) => events.push(event) },
  });
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
