/** The REPL in a real pseudo-terminal: a tmux pane of its own server, for the e2e tests. */
import { join } from "node:path";
import { LAUNCHER } from "./_harness_env.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { until } from "./_poll.ts";

const TMUX = await need("tmux");
export const HAS_TMUX = TMUX.ok;
/** What the names of tests that need tmux end with: "" or why they are skipped. */
export const SKIP = TMUX.note;
export const PROMPT_LINE = /^› $/m;

/** The REPL in a tmux pane of its own server; `screen()` is the whole scrollback. */
export class Pane implements AsyncDisposable {
  #dir: string;
  #socket: string;
  private constructor(dir: string) {
    this.#dir = dir;
    this.#socket = join(dir, "sock");
  }

  /** `vars` are more environment variables for the REPL. */
  static async open(
    args: string[],
    opts: { repo: string; home: string; vars?: Record<string, string> },
  ): Promise<Pane> {
    const pane = new Pane(await Deno.makeTempDir({ prefix: "oi-repl-tmux-" }));
    const quoted = args.map((a) => `'${a}'`).join(" ");
    const vars = Object.entries(opts.vars ?? {}).map(([k, v]) => `${k}='${v}' `).join("");
    const command = `env OPENINTERPRETER_HOME='${opts.home}' FAKE_API_KEY=k TERM=xterm-256color ` +
      `${vars}'${LAUNCHER}' ${quoted}; echo "EXIT:$?"; sleep 600`;
    await pane.#tmux(
      ["new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", opts.repo, command],
    );
    await pane.#tmux(["set-option", "-t", "t", "history-limit", "10000"]);
    return pane;
  }

  async #tmux(args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", { args: ["-S", this.#socket, ...args] }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
    return text;
  }

  /** From now on, every byte the REPL writes to the terminal is also appended to `file`. */
  async record(file: string): Promise<void> {
    await this.#tmux(["pipe-pane", "-o", "-t", "t", `cat >> '${file}'`]);
  }

  screen(): Promise<string> {
    return this.#tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "t"]);
  }

  /** Types `text` literally, then Enter unless `enter` is false. */
  async type(text: string, enter = true): Promise<void> {
    await this.#tmux(["send-keys", "-t", "t", "-l", text]);
    if (enter) await this.key("Enter");
  }

  /** Pastes `text` as the terminal would, in bracketed-paste markers when the REPL asked. */
  async paste(text: string): Promise<void> {
    await this.#tmux(["set-buffer", "-b", "p", text]);
    await this.#tmux(["paste-buffer", "-p", "-d", "-b", "p", "-t", "t"]);
  }

  async key(name: string): Promise<void> {
    await this.#tmux(["send-keys", "-t", "t", name]);
  }

  /** Waits until the screen after `from` characters matches `pattern`; returns that part. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 15_000): Promise<string> {
    let text = "";
    await until(
      `${pattern}`,
      async () => pattern.test(text = (await this.screen()).slice(from)),
      timeoutMs,
    )
      .catch((error) => {
        throw new Error(`${error.message}; the screen shows:\n${text}`);
      });
    return text;
  }

  /** Waits for the prompt to come back after the output so far. */
  async settled(from: number): Promise<string> {
    return await this.waitFor(new RegExp(`${PROMPT_LINE.source}(?![\\s\\S]*\\S)`, "m"), from);
  }

  async mark(): Promise<number> {
    return (await this.screen()).trimEnd().length;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#tmux(["kill-server"]).catch(() => "");
    await Deno.remove(this.#dir, { recursive: true });
  }
}
