/**
 * How the REPL speaks to its terminal: in the accessible plain mode (plain.ts, loaded only when
 * the REPL starts) or not, with the prompt, transcript and pickers each mode uses.
 */
import type { SessionConfig } from "../../session/open.ts";
import type { ReplInput } from "./input.ts";
import { type RawTerminal, withRawTerminal } from "./list_picker.ts";
import { PLAN_PROMPT } from "./plan_command.ts";
import type { Transcript } from "./render.ts";
import { detectTerminal, type Terminal, writeOut } from "./terminal.ts";

/** What the REPL's terminal allows, in plain mode when the flag, the config or `TERM` ask. */
export async function replTerminal(
  config: SessionConfig,
  env: Record<string, string>,
): Promise<Terminal> {
  const term = detectTerminal(env);
  const { plainModeWanted } = await import("./plain.ts");
  return await plainModeWanted(config, env) ? { ...term, plain: true, plainMode: true } : term;
}

/** The transcript's class: plain mode's (plain.ts), else the usual one. */
export async function transcriptKind(term: Terminal): Promise<typeof Transcript> {
  const plain = term.plainMode ? await import("./plain.ts") : undefined;
  return plain?.PlainTranscript ?? (await import("./render.ts")).Transcript;
}

/** The input prompt `prompt` as plain mode shows it: a role label (`You: `). */
export function promptIn(term: Terminal, prompt: string): string {
  if (!term.plainMode) return prompt;
  return prompt === PLAN_PROMPT ? "You (plan mode): " : "You: ";
}

/**
 * How a command's pickers (`/model`) reach the user: the terminal's keys in raw mode, numbered
 * lines in plain mode, or neither (a pipe: the command lists instead); a child's (`/arena`)
 * gets the terminal while the line editor steps aside.
 */
export function pickerAccess(parts: { term: Terminal; input: ReplInput }): {
  rawTerminal?<T>(run: (terminal: RawTerminal) => Promise<T>): Promise<T>;
  numbered?: boolean;
  onTerminal?<T>(run: () => Promise<T>): Promise<T>;
} {
  const { term, input } = parts;
  if (!term.interactive) return {};
  const onTerminal = <T>(run: () => Promise<T>) => input.suspend(run);
  if (term.plain) return { numbered: term.plainMode, onTerminal };
  return { rawTerminal: (run) => input.suspend(() => withRawTerminal(writeOut, run)), onTerminal };
}
