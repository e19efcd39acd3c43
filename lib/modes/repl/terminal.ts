/**
 * The terminal the REPL runs on: what it allows (line editing, escape sequences), writing to
 * stdout, and showing long text through `$PAGER` when it does not fit the screen.
 */
import { colorWanted } from "../term/style.ts";
import type { ReplInput } from "./input.ts";
import type { Transcript } from "./render.ts";

/** What the terminal allows. */
export interface Terminal {
  /** Stdin is a terminal: line editing (unless `plain`), approvals, prompts shown. */
  interactive: boolean;
  /** No escape sequences at all (NO_COLOR, TERM=dumb, or stdout is not a terminal). */
  plain: boolean;
  stdoutIsTerminal: boolean;
}

/** What this process's stdin and stdout allow under `env`. */
export function detectTerminal(env: Record<string, string>): Terminal {
  const stdoutIsTerminal = Deno.stdout.isTerminal();
  return {
    interactive: Deno.stdin.isTerminal(),
    plain: !colorWanted(env, stdoutIsTerminal),
    stdoutIsTerminal,
  };
}

const encoder = new TextEncoder();

/** Writes `text` to stdout, all of it. */
export function writeOut(text: string): void {
  const bytes = encoder.encode(text);
  let done = 0;
  while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
}

/** Prints `text`, through `$PAGER` when stdout is a terminal and it does not fit. */
export async function pageText(
  text: string,
  { term, transcript, input, env }: {
    term: Terminal;
    transcript: Transcript;
    input: ReplInput;
    env: Record<string, string>;
  },
): Promise<void> {
  const lines = text.split("\n");
  const rows = term.stdoutIsTerminal ? Deno.consoleSize().rows : Infinity;
  if (!term.interactive || lines.length < rows - 1) return transcript.lines(lines);
  const pager = env.PAGER || "less -FRX";
  await input.suspend(async () => {
    const child = new Deno.Command("sh", {
      args: ["-c", pager],
      stdin: "piped",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(encoder.encode(text + "\n")).catch(() => {});
    await writer.close().catch(() => {});
    await child.status;
  });
}
