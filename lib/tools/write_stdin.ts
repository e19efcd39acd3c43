import * as z from "zod";
import { defineCapability } from "./capability.ts";
import type { WriteStdinOutput } from "./exec_session.ts";

export type { WriteStdinOutput };

/**
 * Input of `shell.write_stdin` (Codex `write_stdin`): characters for an interactive session that
 * `shell.run` started with `session` and left running after its yield.
 */
const writeStdinInput = z.object({
  session_id: z.number().int().describe("Id of a running session from shell.run"),
  chars: z.string().optional().describe("Characters to send; control keys as their bytes"),
  yield_ms: z.number().nonnegative().optional()
    .describe("How long to wait for output, in milliseconds; default 250"),
  max_output_tokens: z.number().positive().optional()
    .describe("Cap on the output returned, in tokens (4 bytes each); default 10000"),
});

export type WriteStdinInput = z.infer<typeof writeStdinInput>;

/**
 * Sends characters (control keys included) to a running session and returns the output that
 * arrived since the previous call; the work is in exec_session.ts, loaded on first use.
 */
export const shellWriteStdin = defineCapability({
  id: "shell.write_stdin",
  input: writeStdinInput,
  // The characters go to a process that was started, approved and sandboxed as a command; the
  // call adds no reach of its own (read-only sessions and untrusted policies type into it too).
  mutates: false,
  async run(input, ctx): Promise<WriteStdinOutput> {
    const { writeStdin } = await import("./exec_session.ts");
    return await writeStdin(input, ctx);
  },
});
