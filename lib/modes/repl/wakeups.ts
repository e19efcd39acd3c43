/**
 * The session's timers in the REPL: while the prompt waits, the due ones are taken out of the
 * session and their prompts run as turns, one after another (lib/tools/schedule.ts).
 */
import type { Session } from "../../session/open.ts";
import type { Timer } from "../../tools/schedule.ts";

/** How often the waiting prompt looks for timers at most; a due time sooner is waited for exactly. */
const POLL_MS = 1000;

/**
 * Resolves with the timers due once one is (taking them out of the session); never resolves
 * once `signal` fires (the user sent a line first).
 */
export function dueTimers(
  session: Pick<Session, "timers">,
  signal: AbortSignal,
): Promise<{ due: Timer[] }> {
  return new Promise((resolve) => {
    let handle: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      if (signal.aborted || !session.timers) return;
      const pending = await session.timers();
      if (pending.length > 0 && pending[0].dueAt <= Date.now() && !signal.aborted) {
        return resolve({ due: await session.timers("due") });
      }
      const next = pending[0];
      const wait = next ? Math.min(Math.max(next.dueAt - Date.now(), 10), POLL_MS) : POLL_MS;
      handle = setTimeout(tick, wait);
    };
    // A failed look (the session closing under it) is tried again at the next poll.
    const tick = () => void check().catch(() => handle = setTimeout(tick, POLL_MS));
    signal.addEventListener("abort", () => clearTimeout(handle), { once: true });
    tick();
  });
}
