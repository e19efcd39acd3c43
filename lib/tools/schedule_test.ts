import assert from "node:assert/strict";
import type { ToolContext } from "./capability.ts";
import { sessionTimers, TIMERS_STATE_KEY } from "./schedule.ts";
import {
  scheduleCronCreate,
  scheduleCronDelete,
  scheduleCronList,
  scheduleWakeup,
} from "./goal_timer_tools.ts";
import { takeDueTimers } from "./schedule_run.ts";
import { nextCronTime, parseCron } from "./_cron.ts";
import { restoreState, snapshotState } from "./session_state.ts";

const context = () => ({ state: new Map<string, unknown>() }) as unknown as ToolContext;

Deno.test("cron expressions: steps, ranges, lists, and day of month or week", () => {
  const at = (y: number, mo: number, d: number, h = 0, mi = 0) =>
    new Date(y, mo - 1, d, h, mi).getTime();
  const next = (expr: string, from: number) => new Date(nextCronTime(parseCron(expr), from)!);
  assert.equal(next("*/15 * * * *", at(2026, 3, 1, 10, 7)).getMinutes(), 15);
  assert.deepEqual(next("30 14 28 2 *", at(2026, 3, 1)), new Date(2027, 1, 28, 14, 30));
  // 2026-03-02 is a Monday: "0 9 * * 1-5" fires that day at 9.
  assert.deepEqual(next("0 9 * * 1-5", at(2026, 3, 1, 12)), new Date(2026, 2, 2, 9, 0));
  assert.deepEqual(next("0 0 * * 7", at(2026, 3, 2)), new Date(2026, 2, 8, 0, 0), "7 is Sunday");
  assert.deepEqual(next("5,10 8 * * *", at(2026, 3, 1, 8, 5)), new Date(2026, 2, 1, 8, 10));
  assert.throws(() => parseCron("* * *"), /not a 5-field cron expression \(it has 3 fields\)/);
  assert.throws(() => parseCron("61 * * * *"), /Cron minute "61" is not valid/);
  assert.throws(() => parseCron("* * * 0 *"), /Cron month "0" is not valid/);
});

Deno.test("cron_create, cron_list and cron_delete keep the session's jobs", async () => {
  const ctx = context();
  const made = await scheduleCronCreate.run({ cron: "*/5 * * * *", prompt: "check CI" }, ctx);
  assert.match(made.id, /^[0-9a-f]{8}$/);
  assert.equal(made.recurring, true);
  assert.match(made.message, /Scheduled cron job [0-9a-f]{8} \(recurring\)\./);
  await scheduleCronCreate.run({ cron: "0 9 * * *", prompt: "stand-up", recurring: false }, ctx);
  const listed = await scheduleCronList.run({}, ctx);
  assert.equal(listed.count, 2);
  assert.match(listed.list, /cron: \*\/5 \* \* \* \*[^]*prompt: check CI\n---\n[^]*stand-up/);
  const deleted = await scheduleCronDelete.run({ id: made.id }, ctx);
  assert.equal(deleted.message, `Deleted cron job ${made.id}.`);
  assert.equal((await scheduleCronList.run({}, ctx)).count, 1);
  await assert.rejects(scheduleCronDelete.run({ id: made.id }, ctx), /No cron job with id/);
  await assert.rejects(scheduleCronCreate.run({ cron: "every day", prompt: "x" }, ctx), /5-field/);
  await assert.rejects(scheduleCronCreate.run({ cron: "0 0 31 2 *", prompt: "x" }, ctx), /never/);
});

Deno.test("a wake-up is due after its delay, once; a recurring job moves on", async () => {
  const ctx = context();
  const woke = await scheduleWakeup.run(
    { delay_seconds: 90, prompt: "look again", reason: "CI takes a while" },
    ctx,
  );
  assert.equal(woke.delaySeconds, 90);
  await scheduleCronCreate.run({ cron: "* * * * *", prompt: "tick" }, ctx);
  const later = Date.now() + 120_000;
  const due = takeDueTimers(ctx.state, later);
  assert.deepEqual(due.map((t) => t.prompt).sort(), ["look again", "tick"]);
  const left = sessionTimers(ctx.state);
  assert.deepEqual(left.map((t) => t.prompt), ["tick"], "the wake-up fired once");
  assert.ok(left[0].dueAt > later, "the recurring job's next time is after now");
  assert.deepEqual(takeDueTimers(ctx.state, later), []);
});

Deno.test("a wake-up is capped at an hour, needs a prompt, and stop cancels the wake-ups", async () => {
  const ctx = context();
  const long = await scheduleWakeup.run({ delay_seconds: 99_999, prompt: "later" }, ctx);
  assert.equal(long.delaySeconds, 3600);
  await assert.rejects(scheduleWakeup.run({ delay_seconds: 5 }, ctx), /needs a delay in seconds/);
  await scheduleCronCreate.run({ cron: "0 9 * * *", prompt: "daily" }, ctx);
  const stopped = await scheduleWakeup.run({ stop: true }, ctx);
  assert.equal(stopped.message, "Wake-ups cancelled.");
  assert.deepEqual(sessionTimers(ctx.state).map((t) => t.kind), ["cron"]);
});

Deno.test("timers are saved with the session state and come back on resume", async () => {
  const ctx = context();
  await scheduleWakeup.run({ delay_seconds: 60, prompt: "resume me" }, ctx);
  const restored = restoreState(JSON.parse(JSON.stringify(snapshotState(ctx.state))));
  assert.deepEqual(restored.get(TIMERS_STATE_KEY), ctx.state.get(TIMERS_STATE_KEY));
});

Deno.test("a saved recurring job whose expression no longer parses fires once and is dropped", () => {
  const ctx = context();
  const forged = { id: "0badc0de", kind: "cron", prompt: "x", cron: "99 * * * *", recurring: true };
  ctx.state.set(TIMERS_STATE_KEY, [{ ...forged, dueAt: 1 }]);
  assert.deepEqual(takeDueTimers(ctx.state, 2).map((t) => t.id), ["0badc0de"]);
  assert.deepEqual(sessionTimers(ctx.state), []);
});
