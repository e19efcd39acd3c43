/**
 * One line typed without echo (an API key): nothing of it reaches the screen, the REPL's line
 * editor or its history. With line editing the terminal is taken from the REPL input through
 * `suspend()` and read in raw mode; on a plain terminal (TERM=dumb) echo is turned off with
 * `stty` around one ordinary line.
 */
import process from "node:process";
import type { ReplInput } from "./input.ts";

/** How `readSecret` reaches the terminal. */
export interface SecretInputOptions {
  write(text: string): void;
  /** The REPL edits lines in raw mode (`terminalInput`); false for `plainInput`. */
  lineEditing: boolean;
}

/** Keys typed so far; `done` once Enter ("enter") or Ctrl-C/Ctrl-D ("cancel") ended the line. */
export interface SecretState {
  text: string;
  done?: "enter" | "cancel";
  /** Inside a bracketed paste, where newlines are part of what was copied, not Enter. */
  pasting: boolean;
  /** The start of an escape sequence that the next chunk of keys completes. */
  pending?: string;
}

// deno-lint-ignore no-control-regex -- escape sequences start with ESC
const ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[^[O])/s;
// deno-lint-ignore no-control-regex -- escape sequences start with ESC
const UNFINISHED = /^\x1b(?:\[[0-?]*[ -/]*|O)?$/;

/**
 * Applies typed keys: printable characters are kept, Backspace and Ctrl-U delete, Enter ends,
 * Ctrl-C (and Ctrl-D on an empty line) cancels; arrow keys and paste markers are dropped.
 */
export function feedSecret(state: SecretState, keys: string): SecretState {
  if (state.done) return state;
  let { text, pasting } = state;
  let rest = (state.pending ?? "") + keys;
  while (rest) {
    if (rest.startsWith("\x1b")) {
      if (UNFINISHED.test(rest)) return { text, pasting, pending: rest };
      const sequence = ESCAPE.exec(rest)?.[0] ?? "\x1b";
      if (sequence === "\x1b[200~") pasting = true;
      if (sequence === "\x1b[201~") pasting = false;
      rest = rest.slice(sequence.length);
      continue;
    }
    const ch = rest[0];
    rest = rest.slice(1);
    if ((ch === "\r" || ch === "\n") && !pasting) return { text, pasting, done: "enter" };
    if (ch === "\x03" || (ch === "\x04" && text === "")) return { text, pasting, done: "cancel" };
    if (ch === "\x7f" || ch === "\b") text = text.slice(0, -1);
    else if (ch === "\x15") text = "";
    else if (ch >= " ") text += ch;
  }
  return { text, pasting };
}

/** Reads one hidden line after `prompt`; undefined when cancelled (Ctrl-C) or at end of input. */
export function readSecret(
  input: ReplInput,
  prompt: string,
  opts: SecretInputOptions,
): Promise<string | undefined> {
  if (!opts.lineEditing) return readWithoutEcho(input, prompt, opts.write);
  return input.suspend(() => readRaw(prompt, opts.write));
}

/** `suspend()` left the terminal cooked and stdin paused: raw mode here, so nothing echoes. */
function readRaw(prompt: string, write: (text: string) => void): Promise<string | undefined> {
  const decoder = new TextDecoder();
  return new Promise((resolve) => {
    let state: SecretState = { text: "", pasting: false };
    const onData = (chunk: string | Uint8Array) => {
      const keys = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      state = feedSecret(state, keys);
      if (state.done) finish(state.done === "enter" ? state.text : undefined);
    };
    const onEnd = () => finish(undefined);
    const finish = (value: string | undefined) => {
      process.stdin.off("data", onData);
      process.stdin.off("end", onEnd);
      process.stdin.pause();
      process.stdin.setRawMode(false);
      write("\n");
      resolve(value);
    };
    write(prompt);
    process.stdin.setRawMode(true);
    process.stdin.on("data", onData);
    process.stdin.on("end", onEnd);
    process.stdin.resume();
  });
}

/** A plain terminal's own line discipline reads the line; only its echo is switched off. */
async function readWithoutEcho(
  input: ReplInput,
  prompt: string,
  write: (text: string) => void,
): Promise<string | undefined> {
  const hidden = await stty("-echo");
  if (!hidden) write("(the terminal cannot hide what you type: stty failed)\n");
  try {
    return (await input.line(prompt)) ?? undefined;
  } finally {
    if (hidden) {
      await stty("echo");
      // The Enter that ended the line was not echoed either.
      write("\n");
    }
  }
}

async function stty(setting: string): Promise<boolean> {
  try {
    const command = new Deno.Command("stty", {
      args: [setting],
      stdin: "inherit",
      stdout: "null",
      stderr: "null",
    });
    return (await command.output()).success;
  } catch {
    return false;
  }
}
