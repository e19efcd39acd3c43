// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * The model's timers in `exec` (lib/tools/schedule.ts): with `--wait-wakeups` the run waits for
 * every one-shot timer and sends its prompt as a further turn, until none is pending; recurring
 * cron jobs are never waited for. Whatever is left pending is listed at the end.
 */
import type { PromptOutcome, Session } from "../../session/open.ts";
import { terminalText } from "../../approval/visible.ts";
import type { Usage } from "../../model/message.ts";
import type { Timer } from "../../tools/schedule.ts";
import { wakeupLine } from "../term/status_line.ts";
import type { ExecJsonStream } from "./exec_json.ts";

/**
 * Runs the prompts of the one-shot timers as they come due, while the turns complete; returns
 * the last turn's outcome (`first` when none was pending).
 */
export async function runWakeups(
  session: Pick<Session, "timers" | "prompt" | "usage">,
  first: PromptOutcome,
  signal: AbortSignal,
  json?: ExecJsonStream,
): Promise<PromptOutcome> {
  let outcome = first;
  while (outcome.status === "completed" && !signal.aborted) {
    const next = (await session.timers?.() ?? []).find((t) => !t.recurring);
    if (!next) break;
    await untilTime(next.dueAt, signal);
    for (const timer of await session.timers?.("due") ?? []) {
      if (signal.aborted || outcome.status !== "completed") break;
      starting(timer, outcome, session.usage, json);
      outcome = await session.prompt(timer.prompt, signal);
    }
  }
  return outcome;
}

/** Prints the timers still pending (not run) on stderr. */
export function listPending(session: Pick<Session, "status">, waited: boolean): void {
  for (const line of pendingTimerLines(session, waited)) console.error(terminalText(line));
}

/** The lines exec ends with for the timers still pending (not run). */
export function pendingTimerLines(session: Pick<Session, "status">, waited: boolean): string[] {
  const timers = session.status().timers ?? [];
  if (timers.length === 0) return [];
  const why = waited
    ? "recurring jobs are not waited for"
    : "not run: pass --wait-wakeups to wait for wake-ups";
  return [`pending timers (${why}):`, ...timers.map((line) => `  ${line}`)];
}

function untilTime(at: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(handle);
      resolve();
    };
    const handle = setTimeout(done, Math.max(0, at - Date.now()));
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Before a timer's prompt is sent: its line on stderr, or the JSON stream's next turn. */
function starting(
  timer: Timer,
  previous: PromptOutcome,
  usage: Usage,
  json?: ExecJsonStream,
): void {
  if (!json) return console.error(terminalText(wakeupLine(timer)));
  if (previous.status !== "completed") return;
  json.agentMessage(previous.finalText);
  json.turnCompleted(usage);
  json.turnStarted();
}
