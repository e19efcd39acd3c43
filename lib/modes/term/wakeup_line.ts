/** How the REPL and `exec` announce a timer of the session that fired (lib/tools/schedule.ts). */
import type { Timer } from "../../tools/schedule.ts";

/** The line shown before a timer's prompt runs. */
export function wakeupLine(t: Timer): string {
  const what = t.kind === "cron" ? `cron job ${t.id} (${t.cron})` : `wake-up ${t.id}`;
  return `${what} fired${t.reason ? `: ${t.reason}` : ""}`;
}
