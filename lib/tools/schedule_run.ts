/**
 * The schedule tools' work (lib/tools/schedule.ts) and taking due timers out of the session,
 * loaded once a session uses a timer.
 */
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import { nextCronTime, parseCron } from "./_cron.ts";
import {
  type CronInput,
  localTime,
  MAX_TIMERS,
  MAX_WAKEUP_SECONDS,
  type ScheduleOutput,
  sessionTimers,
  type Timer,
  TIMERS_STATE_KEY,
  type WakeupInput,
} from "./schedule.ts";

/**
 * Takes the timers due at `now` out of the session: one-shot ones are removed, recurring ones
 * move on to their next time. Returns them soonest first.
 */
export function takeDueTimers(state: ToolContext["state"], now = Date.now()): Timer[] {
  const timers = sessionTimers(state);
  const due = timers.filter((t) => t.dueAt <= now);
  if (due.length === 0) return [];
  const kept: Timer[] = timers.filter((t) => t.dueAt > now);
  for (const t of due) {
    const next = t.recurring && t.cron ? nextTime(t.cron, now) : undefined;
    if (next !== undefined) kept.push({ ...t, dueAt: next });
  }
  state.set(TIMERS_STATE_KEY, kept);
  return due;
}

/** The next time of a saved job's expression; none for one that no longer parses (a forged file). */
function nextTime(cron: string, now: number): number | undefined {
  try {
    return nextCronTime(parseCron(cron), now);
  } catch {
    return undefined;
  }
}

function newId(taken: readonly Timer[]): string {
  while (true) {
    const id = [...crypto.getRandomValues(new Uint8Array(4))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    if (!taken.some((t) => t.id === id)) return id;
  }
}

function addTimer(state: ToolContext["state"], timer: Omit<Timer, "id">): Timer {
  const timers = sessionTimers(state);
  if (timers.length >= MAX_TIMERS) {
    throw new ToolError(
      `The session already holds ${MAX_TIMERS} timers`,
      "Delete timers that are no longer needed first",
    );
  }
  const added = { id: newId(timers), ...timer };
  state.set(TIMERS_STATE_KEY, [...timers, added]);
  return added;
}

function output(state: ToolContext["state"], t: Timer | undefined, message: string) {
  const timers = sessionTimers(state);
  const now = Date.now();
  const record = (x: Timer) =>
    [`id: ${x.id}`, `kind: ${x.kind}`, x.cron ? `cron: ${x.cron}` : "", `recurring: ${x.recurring}`]
      .concat([`next: ${localTime(x.dueAt)}`, `prompt: ${x.prompt}`]).filter(Boolean).join("\n");
  return {
    id: t?.id ?? "",
    dueAt: t ? localTime(t.dueAt) : "",
    delaySeconds: t ? Math.max(0, Math.round((t.dueAt - now) / 1000)) : 0,
    cron: t?.cron ?? "",
    recurring: t?.recurring ?? false,
    list: timers.map(record).join("\n---\n"),
    count: timers.length,
    message,
  } satisfies ScheduleOutput;
}

/** Schedules one prompt after a delay (or, with `stop`, cancels the pending wake-ups). */
export function wakeup(input: WakeupInput, ctx: ToolContext): ScheduleOutput {
  if (input.stop) {
    const kept = sessionTimers(ctx.state).filter((t) => t.kind !== "wakeup");
    ctx.state.set(TIMERS_STATE_KEY, kept);
    return (output(ctx.state, undefined, "Wake-ups cancelled."));
  }
  if (input.delay_seconds === undefined || input.prompt === undefined) {
    throw new ToolError(
      "A wake-up needs a delay in seconds and a prompt",
      "Give both, or set stop to true to cancel the pending wake-ups",
    );
  }
  const delay = Math.min(input.delay_seconds, MAX_WAKEUP_SECONDS);
  const timer = addTimer(ctx.state, {
    kind: "wakeup",
    prompt: input.prompt,
    ...(input.reason ? { reason: input.reason } : {}),
    recurring: false,
    dueAt: Date.now() + delay * 1000,
  });
  const message = `Wake-up ${timer.id} scheduled in ${Math.round(delay)} seconds.`;
  return (output(ctx.state, timer, message));
}

/** Schedules a prompt by a cron expression. */
export function cronCreate(input: CronInput, ctx: ToolContext): ScheduleOutput {
  const next = nextCronTime(parseCron(input.cron), Date.now());
  if (next === undefined) {
    throw new ToolError(`"${input.cron}" never matches a date`, "Check the day and month");
  }
  const recurring = input.recurring ?? true;
  const timer = addTimer(ctx.state, {
    kind: "cron",
    prompt: input.prompt,
    cron: input.cron.trim(),
    recurring,
    dueAt: next,
  });
  const message = `Scheduled cron job ${timer.id} (${recurring ? "recurring" : "once"}).`;
  return (output(ctx.state, timer, message));
}

/** Deletes a timer by id. */
export function cronDelete(id: string, ctx: ToolContext): ScheduleOutput {
  const timers = sessionTimers(ctx.state);
  const found = timers.find((t) => t.id === id.trim());
  if (!found) {
    throw new ToolError(`No cron job with id ${id}.`, "List the jobs to see their ids");
  }
  ctx.state.set(TIMERS_STATE_KEY, timers.filter((t) => t !== found));
  return (output(ctx.state, found, `Deleted cron job ${found.id}.`));
}

/** Lists the session's timers. */
export function cronList(ctx: ToolContext): ScheduleOutput {
  const n = sessionTimers(ctx.state).length;
  const message = n === 0 ? "No scheduled jobs." : `${n} scheduled job${n === 1 ? "" : "s"}.`;
  return (output(ctx.state, undefined, message));
}
