import assert from "node:assert/strict";
import { CodexEvents } from "./codex_events.ts";
import { type RequestExtra, ToolCallRun } from "./tool_call.ts";

/** A request's `extra` as the SDK hands it, with the client's side played by `answer`. */
function fakeExtra(answer: () => Promise<unknown>) {
  const sent: unknown[] = [];
  const asked: unknown[] = [];
  const extra = {
    requestId: 7,
    signal: new AbortController().signal,
    sendNotification: (n: unknown) => {
      sent.push(n);
      return Promise.resolve();
    },
    sendRequest: (r: unknown) => {
      asked.push(r);
      return answer();
    },
  } as unknown as RequestExtra;
  return { extra, sent, asked };
}

const request = {
  callId: "c1",
  tool: "exec_command",
  question: { capability: "shell.run", subject: "rm x", reason: "untrusted", unsandboxed: false },
};

Deno.test("ToolCallRun.send() holds events until the thread is named, session_configured first", () => {
  const { extra, sent } = fakeExtra(() => Promise.resolve({}));
  const run = new ToolCallRun(extra, () => {});
  run.send({ type: "warning", message: "early" });
  assert.equal(sent.length, 0);
  run.threadStarted("t-1", { type: "session_configured", session_id: "t-1" });
  run.send({ type: "task_started" });
  assert.deepEqual(sent, [
    {
      method: "codex/event",
      params: {
        _meta: { requestId: 7, threadId: "t-1" },
        id: "",
        msg: { type: "session_configured", session_id: "t-1" },
      },
    },
    ...["warning", "task_started"].map((type) => ({
      method: "codex/event",
      params: {
        _meta: { requestId: 7, threadId: "t-1" },
        id: "7",
        msg: type === "warning" ? { type, message: "early" } : { type },
      },
    })),
  ]);
});

Deno.test("ToolCallRun.approve() maps decisions, and an error answer denies", async () => {
  const signal = new AbortController().signal;
  const cases: Array<{ answer: () => Promise<unknown>; reply: string; logs: number }> = [
    { answer: () => Promise.resolve({ decision: "approved" }), reply: "once", logs: 0 },
    {
      answer: () =>
        Promise.resolve({ action: "accept", content: { decision: "approved_for_session" } }),
      reply: "session",
      logs: 0,
    },
    { answer: () => Promise.resolve({ decision: "denied" }), reply: "deny", logs: 0 },
    { answer: () => Promise.reject(new Error("Method not found")), reply: "deny", logs: 1 },
  ];
  for (const { answer, reply, logs } of cases) {
    const { extra, asked } = fakeExtra(answer);
    const logged: string[] = [];
    const run = new ToolCallRun(extra, (line) => logged.push(line));
    run.threadStarted("t-1");
    assert.equal(await run.approve(request, new CodexEvents(), signal), reply);
    assert.equal((asked[0] as { method: string }).method, "elicitation/create");
    assert.equal(logged.length, logs);
    assert.equal(run.signal.aborted, false);
  }
});

Deno.test("ToolCallRun.approve() answered abort denies and stops the turn", async () => {
  const { extra } = fakeExtra(() => Promise.resolve({ decision: "abort" }));
  const run = new ToolCallRun(extra, () => {});
  run.threadStarted("t-1");
  assert.equal(await run.approve(request, new CodexEvents(), new AbortController().signal), "deny");
  assert.equal(run.signal.aborted, true);
  assert.match(run.stoppedBy ?? "", /abort/);
});

Deno.test("ToolCallRun.send() also reports progress when the call carries a progress token", () => {
  const { extra, sent } = fakeExtra(() => Promise.resolve({}));
  const run = new ToolCallRun({ ...extra, _meta: { progressToken: "p1" } }, () => {});
  run.threadStarted("t-1");
  run.send({ type: "agent_message_delta", delta: "a" });
  run.send({ type: "task_complete" });
  const progress = sent.filter((n) =>
    (n as { method: string }).method === "notifications/progress"
  );
  assert.deepEqual(progress, [{
    method: "notifications/progress",
    params: { progressToken: "p1", progress: 1, message: "task_complete" },
  }]);
});
