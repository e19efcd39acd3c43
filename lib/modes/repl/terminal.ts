/**
 * The terminal the REPL runs on: what it allows (line editing, escape sequences), writing to
 * stdout, and showing long text through `$PAGER` when it does not fit the screen.
 */
import type { NotificationKind } from "../../config/_codex_keys.ts";
import type { ConfigValues } from "../../config/schema.ts";
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
  /**
   * The accessible plain mode (`--plain`, `plain = true`, `TERM=dumb`; plain.ts): `plain`, and
   * role labels, numbered choices and progress as whole lines.
   */
  plainMode?: boolean;
  /** Sends what `[tui] notifications` turned on (notifications.ts, set once a session opens). */
  notify?: (kind: NotificationKind, text: string) => void;
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

/** Turns on what `[tui] notifications` asks for, once a run (notifications.ts loads only then). */
export async function startNotifications(
  config: ConfigValues,
  parts: { term: Terminal; input: ReplInput; env: Record<string, string> },
): Promise<void> {
  if (!config.tui?.notifications || !parts.term.interactive || parts.term.notify) return;
  (await import("./notifications.ts")).startNotifier(config.tui, { ...parts, write: writeOut });
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
