import * as z from "zod";
import { defineCapability } from "./capability.ts";
import { MAX_WAIT_S, type TerminalKeysOutput } from "./_terminal_prompt.ts";

export { TERMINAL_RESOURCE, type TerminalKeysOutput } from "./_terminal_prompt.ts";

/** Input of `terminal.keys`. */
const terminalKeysInput = z.object({
  keystrokes: z.string().describe('Text to type; "\\n" presses Enter; "C-c" alone sends Ctrl-C'),
  duration_s: z.number().min(0).optional()
    .describe(`Seconds to wait before reading the screen; default 1, at most ${MAX_WAIT_S}`),
});

/**
 * Types keystrokes into a terminal that lives for the session (a tmux server on a private
 * socket), waits, and reads back what changed. The terminal is kept in `ctx.resources` and closed
 * by disposing it; a watchdog inside tmux also closes it when this process exits.
 */
export const terminalKeys = defineCapability({
  id: "terminal.keys",
  input: terminalKeysInput,
  mutates: true,
  async run(input, ctx): Promise<TerminalKeysOutput> {
    const { runTerminalKeys } = await import("./_terminal_keys_run.ts");
    return await runTerminalKeys(input, ctx);
  },
});
