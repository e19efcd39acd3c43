/**
 * The one polling helper of the tests (unit and end-to-end): wait on another process, a file or
 * a stream with a deadline, never a fixed sleep.
 */

/**
 * Waits until `check` holds, checking at once and then every few ms (5, doubling to 50); fails
 * naming `what` once `ms` have passed.
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (let pause = 5; !(await check()); pause = Math.min(pause * 2, 50)) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${ms} ms)`);
    await new Promise((r) => setTimeout(r, pause));
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
