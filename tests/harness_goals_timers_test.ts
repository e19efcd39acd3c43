/**
 * Goals and timers (issue 32 groups 5 and 6) through real sessions against one fake-provider
 * process per test: the goal tools of native on every wire it allows, of qwen-code and kimi-code
 * on Chat; the wake-up and cron tools of claude-code on every wire, of qwen-code and kimi-code on
 * Chat. The other combinations are covered by the golden requests.
 */
import assert from "node:assert/strict";
import { openSession, type Session } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";

const never = new AbortController().signal;
const call = (name: string, args: Record<string, unknown>, input_tokens = 10): ScriptTurn => ({
  reply: { tool_calls: [{ name, args }], usage: { input_tokens, output_tokens: 0 } },
});
const after = (text: string, turn: ScriptTurn): ScriptTurn => ({
  expect: { last_tool_result_contains: text },
  ...turn,
});
const answer = (text: string, wanted: string): ScriptTurn => ({
  expect: { last_tool_result_contains: wanted },
  reply: { text },
});

/** Opens a session of `harness` on `wire` against the fake, runs `body`, and cleans up. */
async function withSession(
  baseUrl: string,
  opts: { harness: string; wire: WireApi; model?: string },
  body: (session: Session) => Promise<void>,
): Promise<void> {
  await using ws = await requestWorkspace({
    prefix: "oi_goals_",
    files: { "README.md": "# demo\n" },
    model: opts.model ?? "fake-model",
    harness: opts.harness,
    wire: opts.wire,
    baseUrl,
  });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  await body(session);
}

const NATIVE_WIRES: WireApi[] = ["responses", "chat", "messages"];

/** native: a goal over its 50-token budget, the warning after the result, then complete. */
function nativeGoal(): ScriptTurn[] {
  return [
    call("create_goal", { objective: "fix the build", token_budget: 50 }),
    after("Goal created.", call("get_goal", {}, 100)),
    after(
      'Warning: the goal "fix the build" has used 100 tokens of its 50 tokens budget (0 tokens left)',
      call("update_goal", { status: "complete" }),
    ),
    answer("done", "Goal marked complete."),
  ];
}

Deno.test("goals: native on every wire, then qwen-code and kimi-code on Chat", async () => {
  await using fake = startFakeProvider([
    ...NATIVE_WIRES.flatMap(nativeGoal),
    // qwen-code reads and reports the goal created under native (the goal outlives /harness).
    call("create_goal", { objective: "add a test" }),
    answer("goal set", "Goal created."),
    call("get_goal", {}),
    after(
      '"objective": "add a test"',
      call("update_goal", { status: "blocked", reason: "no CI key", blockerKind: "authority" }),
    ),
    answer("blocked", "Goal marked blocked."),
    // kimi-code: its own goal tools, the budget in turns or tokens, and the <system> reminder.
    call("CreateGoal", { objective: "ship it", completionCriterion: "tests pass" }),
    after("Goal created: ship it", call("SetGoalBudget", { value: 40, unit: "tokens" })),
    after("Goal budget set: 40 tokens.", call("GetGoal", {}, 35)),
    after(
      '<system>The goal "ship it" has used 45 tokens of its 40 tokens budget (0 tokens left).',
      call("UpdateGoal", { status: "complete" }),
    ),
    answer("shipped", "Used: 55 tokens."),
  ]);
  for (const wire of NATIVE_WIRES) {
    await withSession(
      fake.baseUrl,
      { harness: "native", wire, model: "gpt-5-codex" },
      async (s) => {
        const outcome = await s.prompt("fix the build as a goal", never);
        assert.deepEqual(outcome, { status: "completed", finalText: "done" }, wire);
        assert.equal(s.status().goal?.status, "complete");
      },
    );
  }
  await withSession(fake.baseUrl, { harness: "native", wire: "chat" }, async (s) => {
    await s.prompt("set the goal", never);
    await s.switchHarness("qwen-code");
    assert.deepEqual(await s.prompt("work on it", never), {
      status: "completed",
      finalText: "blocked",
    });
    assert.equal(s.status().goal?.status, "blocked");
  });
  await withSession(fake.baseUrl, { harness: "kimi-code", wire: "chat" }, async (s) => {
    assert.deepEqual(await s.prompt("ship it", never), {
      status: "completed",
      finalText: "shipped",
    });
  });
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

/** claude-code: a wake-up due at once, then the cron tools once ToolSearch loaded them. */
function claudeTimers(): ScriptTurn[] {
  return [
    call("ScheduleWakeup", { delaySeconds: 0, reason: "poll CI", prompt: "check CI again" }),
    after("It fires at", call("ToolSearch", { query: "select:CronCreate,CronList,CronDelete" })),
    call("CronCreate", { cron: "*/10 * * * *", prompt: "sweep", recurring: true }),
    after("Job id:", call("CronList", {})),
    answer("listed", "cron: */10 * * * *"),
  ];
}

Deno.test("timers: claude-code on every wire, qwen-code and kimi-code on Chat", async () => {
  await using fake = startFakeProvider([
    ...NATIVE_WIRES.flatMap(claudeTimers),
    call("tool_call", { name: "loop_wakeup", arguments: { delaySeconds: 0, prompt: "look" } }),
    after("cancel it with cron_delete", call("tool_call", { name: "cron_list", arguments: {} })),
    answer("qwen listed", "prompt: look"),
    call("CronCreate", { cron: "0 9 * * 1", prompt: "weekly", recurring: false }),
    after("Created cron job", call("CronList", {})),
    answer("kimi listed", "recurring: false"),
  ]);
  for (const wire of NATIVE_WIRES) {
    await withSession(fake.baseUrl, { harness: "claude-code", wire }, async (s) => {
      assert.deepEqual(await s.prompt("watch CI", never), {
        status: "completed",
        finalText: "listed",
      });
      const due = await s.timers!("due");
      assert.deepEqual(due.map((t) => [t.kind, t.prompt]), [["wakeup", "check CI again"]]);
      assert.deepEqual((await s.timers!()).map((t) => t.prompt), ["sweep"]);
      assert.match(s.status().timers![0], /cron "\*\/10 \* \* \* \*", next/);
    });
  }
  await withSession(fake.baseUrl, { harness: "qwen-code", wire: "chat" }, async (s) => {
    assert.equal((await s.prompt("wake me", never)).status, "completed");
    assert.equal((await s.timers!("due"))[0].prompt, "look");
  });
  await withSession(fake.baseUrl, { harness: "kimi-code", wire: "chat" }, async (s) => {
    assert.equal((await s.prompt("every monday", never)).status, "completed");
    const [job] = await s.timers!();
    assert.equal(job.recurring, false);
    assert.equal(new Date(job.dueAt).getDay(), 1);
  });
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});
