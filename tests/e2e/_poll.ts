/** Polling helpers for tests that wait on another process: no fixed sleeps. */

/** Waits until `check` holds, polling every 25 ms; fails naming `what` after `ms`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether process `pid` still exists (a signal 0 stand-in that Deno accepts). */
export function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
