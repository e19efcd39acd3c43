/**
 * Codex's `notify`: after each agent turn the configured program runs with Codex's JSON payload
 * as its last argument, its input and output going nowhere, and nobody waits for it. Loaded only
 * when `notify` is set.
 */

/** What the program is told about the turn, as Codex names it. */
export interface TurnNotice {
  threadId: string;
  turnId: string;
  cwd: string;
  /** Which front end ran the turn: `interpreter-repl`, `interpreter-exec`, … */
  client: string;
  /** The texts the user sent in the turn. */
  inputMessages: string[];
  /** The model's last answer; null when there is none. */
  lastAssistantMessage: string | null;
}

/** Codex's `agent-turn-complete` payload (its field order and names). */
export function turnPayload(notice: TurnNotice): string {
  return JSON.stringify({
    type: "agent-turn-complete",
    "thread-id": notice.threadId,
    "turn-id": notice.turnId,
    cwd: notice.cwd,
    client: notice.client,
    "input-messages": notice.inputMessages,
    "last-assistant-message": notice.lastAssistantMessage,
  });
}

/**
 * Starts `argv` with the payload of `notice` added; returns the child (its end is nobody's
 * business: it does not keep this process running), or throws a message naming the fix.
 */
export function runNotify(
  argv: readonly string[],
  notice: TurnNotice,
  opts: { env: Record<string, string> },
): Deno.ChildProcess {
  const [program, ...args] = argv;
  try {
    const child = new Deno.Command(program, {
      args: [...args, turnPayload(notice)],
      cwd: notice.cwd,
      env: opts.env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    return child;
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "no such program"
      : (error as Error).message;
    throw new Error(
      `Cannot run the notify program "${program}": ${why}. Fix "notify" in your config.toml ` +
        "(a program on PATH or an absolute path, then its arguments), or remove it",
    );
  }
}

/** What runs `argv` after each turn of a session of `client`; a program that cannot run warns. */
export function notifier(
  argv: readonly string[],
  opts: { client: string; env: Record<string, string>; warn(message: string): void },
): (notice: Omit<TurnNotice, "client">) => void {
  return (notice) => {
    try {
      runNotify(argv, { ...notice, client: opts.client }, { env: opts.env });
    } catch (error) {
      opts.warn((error as Error).message);
    }
  };
}
