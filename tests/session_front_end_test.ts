/** A front end as ACP, mcp-server and eval are written: lib/session only, SessionConfig and IO. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "./fake_provider/server.ts";
import { sessionWorkspace } from "../lib/session/_test_session.ts";
import {
  openSession,
  type SessionEvent,
  type ToolSource,
  TurnInProgressError,
} from "../lib/session/open.ts";

const call = (id: string, cmd: string) => ({
  reply: { tool_calls: [{ id, name: "exec_command", args: { cmd } }] },
});

Deno.test("a front end ties approvals to call ids, sees progress, cancels a pending approval and is refused a second turn", async () => {
  // It ends early ("gated") only when its progress reached the front end while it ran.
  const slow =
    "echo started; for i in $(seq 200); do [ -f gate ] && echo gated && break; sleep 0.05; done";
  await using fake = await startFakeProvider([
    call("call_1", "touch approved.txt"),
    { reply: { text: "made it" } },
    call("call_2", slow),
    { expect: { last_tool_result_contains: "gated" }, reply: { text: "waited" } },
    call("call_3", "touch never.txt"),
  ]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  const events: SessionEvent[] = [];
  const approvals: string[] = [];
  let thirdAsked: (signal: AbortSignal) => void = () => {};
  const third = new Promise<AbortSignal>((resolve) => thirdAsked = resolve);
  const config = { cwd: ws.cwd, sandbox: "workspace-write", approval: "untrusted" } as const;
  await using session = await openSession(config, {
    onEvent: (event) => {
      events.push(event);
      if (event.type === "tool_progress" && event.text.includes("started")) {
        Deno.writeTextFileSync(join(ws.cwd, "gate"), "");
      }
    },
    approve: ({ callId }, signal) => {
      approvals.push(callId);
      if (callId !== "call_3") return Promise.resolve("once");
      thirdAsked(signal);
      return new Promise(() => {}); // never answered: only the signal ends it
    },
  }, { env: ws.env });
  assert.ok(session.id, "an id from the start");
  const turn = new AbortController();
  assert.equal((await session.prompt("make a file", turn.signal)).status, "completed");
  const asked = events.find((e) => e.type === "approval_requested");
  assert.equal(asked?.type === "approval_requested" && asked.callId, "call_1");
  assert.deepEqual(approvals, ["call_1"]);
  assert.equal((await session.prompt("wait for it", turn.signal)).status, "completed");
  const progress = events.findIndex((e) => e.type === "tool_progress" && e.callId === "call_2");
  const end = events.findIndex((e) => e.type === "tool_end" && e.call.id === "call_2");
  assert.ok(progress >= 0 && progress < end, "progress came before the command ended");
  const cancel = new AbortController();
  const running = session.prompt("one more", cancel.signal);
  const approvalSignal = await third;
  await assert.rejects(session.prompt("overlapping", turn.signal), TurnInProgressError);
  const withdrawn = new Promise((resolve) => approvalSignal.addEventListener("abort", resolve));
  cancel.abort();
  await withdrawn; // the approval's own signal fired
  assert.equal((await running).status, "aborted");
  await assert.rejects(Deno.stat(join(ws.cwd, "never.txt")), Deno.errors.NotFound);
  assert.deepEqual(fake.failures, []);
});
const shout: ToolSource = {
  id: "test",
  tools: () =>
    Promise.resolve([{
      name: "shout",
      description: "Returns its text in capitals",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      kind: "other",
      mutates: false,
      run: (input) => Promise.resolve({ text: String(input.text).toUpperCase() }),
    }]),
};

for (const harness of ["native", "claude-code"]) {
  Deno.test(`a front end's tool source is offered and called through the ${harness} harness`, async () => {
    await using fake = await startFakeProvider([
      {
        expect: { tools_include: ["mcp__test__shout"] },
        reply: { tool_calls: [{ id: "s1", name: "mcp__test__shout", args: { text: "hello" } }] },
      },
      { expect: { last_tool_result_contains: "HELLO" }, reply: { text: "it said HELLO" } },
    ]);
    await using ws = await sessionWorkspace(fake.baseUrl);
    await using session = await openSession({ cwd: ws.cwd, harness, approval: "untrusted" }, {
      onEvent: () => {},
    }, { env: ws.env, toolSources: [shout] });
    const outcome = await session.prompt("shout hello", new AbortController().signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "it said HELLO" });
    assert.deepEqual(fake.failures, []);
  });
}
