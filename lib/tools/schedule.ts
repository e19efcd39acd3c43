/**
 * The session's timers (wake-ups and cron jobs), kept in `ToolContext.state`: each holds a prompt
 * sent as a new turn once due. What every session loads; the tools' work is in `schedule_run.ts`.
 */
import * as z from "zod";
import type { ToolContext } from "./capability.ts";

export const TIMERS_STATE_KEY = "schedule.timers";

export const MAX_WAKEUP_SECONDS = 3600;
export const MAX_TIMERS = 50;
const MAX_PROMPT_CHARS = 10_000;

/** A stored timer. */
export const timerSchema = z.object({
  id: z.string(),
  kind: z.enum(["wakeup", "cron"]),
  prompt: z.string(),
  reason: z.string().optional(),
  cron: z.string().optional(),
  recurring: z.boolean(),
  dueAt: z.number(),
});
export type Timer = z.infer<typeof timerSchema>;

/** Result of every schedule capability. */
export interface ScheduleOutput {
  id: string;
  dueAt: string;
  delaySeconds: number;
  cron: string;
  recurring: boolean;
  /** One record per timer, separated by `---` lines. */
  list: string;
  count: number;
  message: string;
}

/** The session's timers, soonest first. */
export function sessionTimers(state: ToolContext["state"]): Timer[] {
  const timers = state.get(TIMERS_STATE_KEY);
  return Array.isArray(timers) ? [...timers as Timer[]].sort((a, b) => a.dueAt - b.dueAt) : [];
}

/** One line per timer for `/status`, the REPL and the end of `exec`. */
export function timerLine(t: Timer, now = Date.now()): string {
  const when = t.kind === "cron" ? `cron "${t.cron}"${t.recurring ? "" : " once"}, next` : "at";
  const inS = Math.max(0, Math.round((t.dueAt - now) / 1000));
  return `${t.id} ${t.kind} ${when} ${localTime(t.dueAt)} (in ${inS}s): ${firstLine(t.prompt)}`;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0];
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function localTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ` +
    `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const promptField = z.string().trim().min(1).max(MAX_PROMPT_CHARS);

export const wakeupInput = z.object({
  delay_seconds: z.number().min(0).optional().describe("Seconds from now; at most 3600"),
  prompt: promptField.optional().describe("The prompt sent when the wake-up fires"),
  reason: z.string().optional().describe("Why this delay, shown to the user"),
  stop: z.boolean().optional().describe("Cancel the pending wake-ups instead"),
  noop: z.boolean().optional().describe("Accepted and ignored"),
});

export const cronInput = z.object({
  cron: z.string().describe('Five fields in local time: "M H DoM Mon DoW"'),
  prompt: promptField.describe("The prompt sent at each firing"),
  recurring: z.boolean().optional().describe("Fire at every match (default) or once"),
  durable: z.boolean().optional().describe("Accepted and ignored"),
  session_mode: z.string().optional().describe("Accepted and ignored"),
});

export type WakeupInput = z.infer<typeof wakeupInput>;
export type CronInput = z.infer<typeof cronInput>;
