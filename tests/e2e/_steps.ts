/** Test steps that keep going after a failure and say what the process under test printed. */

/**
 * `t.step` for a test that drives one process: a failing step fails the test but the next steps
 * still run (so one failure hides none of the rest), and its message ends with the process's
 * stderr so far (`stderr()`), headed `label`.
 */
export function stepper(
  t: Deno.TestContext,
  label: string,
  stderr: () => string,
): (name: string, fn: () => void | Promise<void>) => Promise<boolean> {
  return (name, fn) =>
    t.step(name, async () => {
      try {
        await fn();
      } catch (error) {
        if (error instanceof Error) error.message += `\n--- ${label} ---\n${stderr()}`;
        throw error;
      }
    });
}
