/**
 * What `terminal.keys` does (terminal_keys.ts), loaded on its first call: a tmux terminal that
 * lives for the session, keystrokes typed into it, and what changed on its screen.
 */
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import type { SpawnSpec } from "../../sandbox/command_sandbox.ts";
import type { ScratchSpace } from "../../sandbox/scratch_space.ts";
import { sandboxedSpawn } from "./_sandboxed_spawn.ts";
import { scratchOf } from "./_fs.ts";
import type { ToolContext } from "./capability.ts";
import { resourcesOf } from "./resources.ts";
import {
  MAX_WAIT_S,
  PS1,
  type SessionTerminal,
  TERMINAL_RESOURCE,
  type TerminalKeysInput,
  type TerminalKeysOutput,
} from "./_terminal_prompt.ts";

/** Wait used when the call gives none, in seconds. */
const DEFAULT_WAIT_S = 1;
/** After a line is sent, how long to wait for the shell prompt to come back. */
const PROMPT_WAIT_MS = 5_000;
const POLL_MS = 100;
const COLUMNS = 160;
const ROWS = 40;
const SESSION = "main";
/** `PROMPT_END` recognises the terminal's prompt (`PS1`) at the end of a line. */
const PROMPT_END = /^\S+@[^\s:]+:.*#$/;
/** Whole keystrokes strings sent as one tmux key rather than as text. */
const KEY_NAME = /^(?:C-[a-z\\\]\[@^_]|M-[a-z]|Enter|Escape|Tab|BSpace|Up|Down|Left|Right)$/i;

/** Types `input.keystrokes` into the session's terminal, waits, and reads what changed. */
export async function runTerminalKeys(
  input: TerminalKeysInput,
  ctx: ToolContext,
): Promise<TerminalKeysOutput> {
  const resources = resourcesOf(ctx);
  let term = resources.get(TERMINAL_RESOURCE);
  if (term && !(await term.alive())) {
    await term[Symbol.asyncDispose]();
    term = undefined;
  }
  if (!term) {
    term = await TmuxTerminal.start(ctx);
    resources.set(TERMINAL_RESOURCE, term);
  }
  await term.type(input.keystrokes);
  const waitS = Math.min(input.duration_s ?? DEFAULT_WAIT_S, MAX_WAIT_S);
  await sleep(waitS * 1000, ctx.signal);
  if (input.keystrokes.endsWith("\n")) await term.waitForPrompt(PROMPT_WAIT_MS, ctx.signal);
  const { newOutput, screen } = await term.read();
  return { keystrokes: input.keystrokes, newOutput, screen, output: newOutput ?? screen };
}

/**
 * A tmux server with one shell session, on a socket in a scratch folder that sandboxed commands
 * cannot see (so the sandboxed shell cannot reach the server, which runs outside the sandbox).
 */
export class TmuxTerminal implements SessionTerminal {
  #dir: string;
  #scratch: ScratchSpace;
  #env: Record<string, string>;
  #history: string[] = [];
  #closed = false;

  private constructor(dir: string, opts: { scratch: ScratchSpace; env: Record<string, string> }) {
    this.#dir = dir;
    this.#scratch = opts.scratch;
    this.#env = opts.env;
  }

  /** Path of the tmux socket; `tmux -S <socket>` reaches this terminal. */
  get socket(): string {
    return join(this.#dir, "sock");
  }

  /** Starts the server and its shell in `ctx.cwd`, and waits for the first prompt. */
  static async start(ctx: ToolContext): Promise<TmuxTerminal> {
    const shell = await shellCommand(ctx);
    const scratch = scratchOf(ctx);
    const dir = await scratch.makeDir("oi-tmux-");
    const term = new TmuxTerminal(dir, { scratch, env: shell.env });
    try {
      const conf = join(dir, "tmux.conf");
      const settings = "set -g history-limit 50000\nset -g status off\n";
      await scratch.writeFile(conf, new TextEncoder().encode(settings));
      await term.#tmux([
        "-f",
        conf,
        "new-session",
        "-d",
        "-s",
        SESSION,
        "-x",
        String(COLUMNS),
        "-y",
        String(ROWS),
        "-c",
        ctx.cwd,
        shell.cmd,
        ...shell.args,
      ]);
      await term.#tmux(["new-session", "-d", "-s", "watchdog", term.#watchdogScript()]);
      await term.waitForPrompt(PROMPT_WAIT_MS, ctx.signal);
      term.#history = await term.#historyLines();
      return term;
    } catch (err) {
      await term[Symbol.asyncDispose]();
      throw err;
    }
  }

  /** Whether the shell session still exists (it ends when the shell exits). */
  async alive(): Promise<boolean> {
    if (this.#closed) return false;
    try {
      await this.#tmux(["has-session", "-t", SESSION]);
      return true;
    } catch {
      return false;
    }
  }

  /** Types `keystrokes` literally, pressing Enter for each newline. */
  async type(keystrokes: string): Promise<void> {
    if (KEY_NAME.test(keystrokes)) {
      await this.#tmux(["send-keys", "-t", SESSION, keystrokes]);
      return;
    }
    const parts = keystrokes.split("\n");
    for (const [i, part] of parts.entries()) {
      if (part) await this.#tmux(["send-keys", "-t", SESSION, "-l", "--", part]);
      if (i < parts.length - 1) await this.#tmux(["send-keys", "-t", SESSION, "Enter"]);
    }
  }

  /** Waits until the last screen line is a shell prompt, or `ms` pass. */
  async waitForPrompt(ms: number, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const last = (await this.screen()).split("\n").at(-1) ?? "";
      if (PROMPT_END.test(last)) return;
      await sleep(POLL_MS, signal);
    }
  }

  /** The visible screen. */
  async screen(): Promise<string> {
    return trimLines(await this.#tmux(["capture-pane", "-p", "-t", SESSION])).join("\n");
  }

  /** What was added since the previous read (null if the history no longer extends it). */
  async read(): Promise<{ newOutput: string | null; screen: string }> {
    const now = await this.#historyLines();
    const before = this.#history;
    this.#history = now;
    return { newOutput: appended(before, now), screen: await this.screen() };
  }

  /** Kills the tmux server and removes its folder. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#tmux(["kill-server"]).catch(() => {});
    await this.#scratch.remove(this.#dir).catch(() => {});
  }

  async #historyLines(): Promise<string[]> {
    return trimLines(await this.#tmux(["capture-pane", "-p", "-J", "-t", SESSION, "-S", "-"]));
  }

  /** Kills the server once this process is gone, however it ended. */
  #watchdogScript(): string {
    const sock = shQuote(this.socket);
    return `trap '' HUP; while kill -0 ${Deno.pid} 2>/dev/null; do sleep 1; done; ` +
      `tmux -S ${sock} kill-server; rm -rf ${shQuote(this.#dir)}`;
  }

  async #tmux(args: string[]): Promise<string> {
    let out: Deno.CommandOutput;
    try {
      out = await new Deno.Command("tmux", {
        args: ["-S", this.socket, ...args],
        clearEnv: true,
        env: this.#env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
    } catch (err) {
      throw new ToolError(
        `Cannot run tmux: ${(err as Error).message}`,
        "Install tmux to use the terminal",
      );
    }
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      const why = new TextDecoder().decode(out.stderr).trim();
      throw new ToolError(`tmux ${args[0] === "-f" ? args[2] : args[0]} failed: ${why}`);
    }
    return text;
  }
}

/**
 * The terminal's shell, wrapped by the session's sandbox when there is one: the tmux server
 * runs outside it, the shell (and all it starts) inside.
 */
async function shellCommand(ctx: ToolContext): Promise<SpawnSpec> {
  const env = { ...ctx.env, PS1, HISTFILE: "/dev/null" };
  return await sandboxedSpawn(["bash", "--norc", "--noprofile"], { cwd: ctx.cwd, env }, ctx);
}

/** Lines with trailing spaces removed, and trailing empty lines dropped. */
function trimLines(text: string): string[] {
  const lines = text.split("\n").map((l) => l.trimEnd());
  while (lines.length && lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The lines `now` adds to `before`, starting with `before`'s last line as it reads now (the
 * prompt line the input was typed on). Null when `now` does not extend `before`.
 */
function appended(before: string[], now: string[]): string | null {
  if (before.length === 0) return now.join("\n");
  const last = before.length - 1;
  if (now.length < before.length) return null;
  for (let i = 0; i < last; i++) if (now[i] !== before[i]) return null;
  if (!now[last].startsWith(before[last])) return null;
  return now.slice(last).join("\n");
}

function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
