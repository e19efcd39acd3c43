import assert from "node:assert/strict";
import { parseScript, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";
import { pendingTimerLines, runWakeups } from "../modes/exec/exec_wakeups.ts";

const script = (turns: unknown[]) => parseScript(turns.map((t) => JSON.stringify(t)).join("\n"));
const call = (id: string, name: string, args: unknown, input_tokens: number) => ({
  reply: { tool_calls: [{ id, name, args }], usage: { input_tokens, output_tokens: 0 } },
});
const never = new AbortController().signal;

Deno.test("a goal over its budget gets the reminder, and a resumed session has it again", async () => {
  await using fake = await startFakeProvider(script([
    call("c1", "create_goal", { objective: "make the tests pass", token_budget: 1000 }, 100),
    {
      expect: { last_tool_result_contains: "Goal created." },
      ...call("c2", "get_goal", {}, 500),
    },
    {
      expect: { last_tool_result_contains: '"tokensUsed": 500' },
      ...call("c3", "get_goal", {}, 900),
    },
    {
      // 1400 of 1000 tokens: the native harness's warning follows the result.
      expect: {
        last_tool_result_contains:
          'Warning: the goal "make the tests pass" has used 1400 tokens of its 1000 tokens budget',
      },
      reply: { text: "over budget, stopping" },
    },
    {
      expect: { tools_include: ["create_goal", "get_goal", "update_goal"] },
      ...call("c4", "update_goal", { status: "complete" }, 10),
    },
    { expect: { last_tool_result_contains: "Goal marked complete." }, reply: { text: "done" } },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const open = (resume?: string) =>
    openSession(
      { cwd: ws.cwd, sandbox: "danger-full-access", ...(resume ? { resume: { id: resume } } : {}) },
      { onEvent: () => {} },
      { env: ws.env },
    );
  let id: string | undefined;
  {
    await using session = await open();
    const outcome = await session.prompt("work toward the goal", never);
    assert.deepEqual(outcome, { status: "completed", finalText: "over budget, stopping" });
    const goal = session.status().goal;
    assert.deepEqual(goal, {
      objective: "make the tests pass",
      status: "active",
      used: "1400 tokens",
      budget: "1000 tokens",
    });
    id = session.status().sessionId;
  }
  await using resumed = await open(id);
  assert.equal(resumed.status().goal?.used, "1400 tokens", "the goal came back with the session");
  await resumed.prompt("wrap it up", never);
  assert.equal(resumed.status().goal?.status, "complete");
  assert.deepEqual(fake.failures, []);
});

Deno.test("wake-ups: exec's wait runs a due one as a further turn; recurring ones are listed", async () => {
  await using fake = await startFakeProvider(script([
    {
      reply: {
        tool_calls: [
          {
            id: "w1",
            name: "ScheduleWakeup",
            args: {
              delaySeconds: 0.2,
              reason: "the build needs a moment",
              prompt: "check the build",
            },
          },
          {
            id: "w2",
            name: "ToolSearch",
            args: { query: "select:CronCreate" },
          },
        ],
      },
    },
    {
      reply: {
        tool_calls: [{
          id: "w3",
          name: "CronCreate",
          args: { cron: "0 9 * * *", prompt: "daily report" },
        }],
      },
    },
    { expect: { last_tool_result_contains: "Job id:" }, reply: { text: "scheduled" } },
    { expect: { user_contains: "check the build" }, reply: { text: "the build is green" } },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", harness: "claude-code" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const first = await session.prompt("watch the build", never);
  assert.deepEqual(first, { status: "completed", finalText: "scheduled" });
  const before = pendingTimerLines(session, false);
  assert.match(before[0], /not run: pass --wait-wakeups/);
  assert.equal(before.length, 3, "the wake-up and the cron job");
  const last = await runWakeups(session, first, never);
  assert.deepEqual(last, { status: "completed", finalText: "the build is green" });
  const after = pendingTimerLines(session, true);
  assert.match(after[0], /recurring jobs are not waited for/);
  assert.match(after[1], /cron "0 9 \* \* \*", next .*: daily report/);
  assert.deepEqual(fake.failures, []);
});

Deno.test("/goal's setGoal() starts a goal in place of any, and clears it", async () => {
  await using fake = await startFakeProvider(script([
    { expect: { user_contains: "go" }, ...call("g1", "get_goal", {}, 10) },
    { expect: { last_tool_result_contains: '"objective": "ship v2"' }, reply: { text: "ok" } },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  await session.setGoal!("ship v1");
  await session.setGoal!("ship v2");
  assert.deepEqual(session.status().goal, {
    objective: "ship v2",
    status: "active",
    used: "0 tokens",
    budget: "",
  });
  await session.prompt("go", never);
  await session.setGoal!(undefined);
  assert.equal(session.status().goal, undefined);
  assert.deepEqual(fake.failures, []);
});
