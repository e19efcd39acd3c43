/**
 * What `terminal.keys` (terminal_keys.ts) and its implementation (_terminal_keys_run.ts) share:
 * the prompt of the terminal it types into (bash with `PS1` below; lib/workspace/
 * terminal_screen.ts works out the line a fresh one shows), where the terminal lives in
 * `ctx.resources`, the longest wait, and the call's input and output.
 */
import { resourceKey } from "./resources.ts";

/** The prompt the terminal's shell shows: user, host, working folder (`~` for home), `#`. */
export const PS1 = "\\u@\\h:\\w# ";

/** Longest wait one call may ask for, in seconds. */
export const MAX_WAIT_S = 60;

/** The session's terminal as `ctx.resources` keeps it (a tmux server; closed by disposing). */
export interface SessionTerminal extends AsyncDisposable {
  /** Path of the tmux socket; `tmux -S <socket>` reaches this terminal. */
  readonly socket: string;
  alive(): Promise<boolean>;
  type(keystrokes: string): Promise<void>;
  waitForPrompt(ms: number, signal: AbortSignal): Promise<void>;
  screen(): Promise<string>;
  read(): Promise<{ newOutput: string | null; screen: string }>;
}

/** Where the session's terminal lives in `ctx.resources`. */
export const TERMINAL_RESOURCE = resourceKey<SessionTerminal>("terminal.keys.session");

/** The checked input of `terminal.keys`. */
export interface TerminalKeysInput {
  keystrokes: string;
  duration_s?: number;
}

/** Result of `terminal.keys`. */
export interface TerminalKeysOutput {
  keystrokes: string;
  /** Text added to the terminal since the previous read; null when it cannot be told apart. */
  newOutput: string | null;
  /** The visible screen, trailing blank lines removed. */
  screen: string;
  /** `newOutput` when known, else `screen`. */
  output: string;
}
