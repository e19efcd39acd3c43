/**
 * Sample outputs of interactive command sessions, for `SAMPLE_OUTPUTS` (see `_sample_outputs.ts`):
 * a `shell.run` session still running after its yield, and a `shell.write_stdin` poll.
 */
import type { ShellRunOutput } from "../tools/shell_run.ts";
import type { WriteStdinOutput } from "../tools/write_stdin.ts";

/** A `shell.run` session still running after its yield. */
export const SESSION_RUN_SAMPLES: readonly ShellRunOutput[] = [
  {
    command: "python3 -i",
    cwd: ".",
    exitCode: null,
    output: "Python 3.11.7\n>>> ",
    durationMs: 10012,
    timedOut: false,
    timeoutMs: 120000,
    truncated: false,
    sessionId: 1000,
    originalTokenCount: 5,
  },
];

export const SESSION_SAMPLE_OUTPUTS: Readonly<Record<string, readonly object[]>> = {
  "shell.write_stdin": [
    {
      command: "python3 -i",
      chars: "print(2 + 2)\n",
      exitCode: null,
      sessionId: 1000,
      output: "print(2 + 2)\n4\n>>> ",
      originalTokenCount: 5,
      durationMs: 251,
    } satisfies WriteStdinOutput,
  ],
};
