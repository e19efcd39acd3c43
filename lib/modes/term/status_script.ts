/**
 * A status-line script (`status_line_command`, Claude Code's `statusLine`): run as hooks run
 * (`lib/session/status_command.ts`: the user's shell, its children ended with it) with Claude Code's
 * status JSON on stdin and `COLUMNS` set; the first line it prints replaces the built-in status
 * line. Runs at most every 300 ms (a call sooner reuses the last line) and for at most 2 s: a
 * script that takes longer keeps the last line; one that fails leaves the built-in line; each
 * says so in one warning. Colours and hyperlinks stay; anything that moves the cursor is removed.
 */
import { VERSION } from "../../version.ts";
import type { StatusLineFacts } from "./status_line.ts";

/** The script as the session gives it. */
export interface StatusScriptSpec {
  command: string;
  padding: number;
  source: string;
  projectDir: string;
}

/** What the script's input is made of: the session's status and who it is. */
export interface StatusScriptFacts extends StatusLineFacts {
  cwd: string;
  sessionId?: string;
  sessionFile?: string;
}

/** How a `StatusScript` runs. */
export interface StatusScriptOptions {
  cwd: string;
  env: Record<string, string>;
  warn(message: string): void;
  /** The terminal's width. */
  columns(): number;
  /** Milliseconds before the script is given up on; default 2000. */
  timeoutMs?: number;
  /** Fewest milliseconds between two runs; default `STATUS_SCRIPT_THROTTLE_MS`. */
  throttleMs?: number;
}

/** Fewest milliseconds between two runs. */
const STATUS_SCRIPT_THROTTLE_MS = 300;

/** One session's status-line script (see the module comment). */
export class StatusScript {
  readonly #spec: StatusScriptSpec;
  readonly #opts: StatusScriptOptions;
  readonly #started = Date.now();
  #line: string | undefined;
  #lastRun = 0;
  #warned = false;

  constructor(spec: StatusScriptSpec, opts: StatusScriptOptions) {
    this.#spec = spec;
    this.#opts = opts;
  }

  /** The last line the script printed; undefined before it printed one. */
  line(): string | undefined {
    return this.#line;
  }

  /** Runs the script with `facts` unless it ran less than 300 ms ago; returns the line. */
  async refresh(facts: StatusScriptFacts): Promise<string | undefined> {
    const throttle = this.#opts.throttleMs ?? STATUS_SCRIPT_THROTTLE_MS;
    if (Date.now() - this.#lastRun < throttle) return this.#line;
    this.#lastRun = Date.now();
    const { runStatusCommand } = await import("../../session/status_command.ts");
    const timeoutMs = this.#opts.timeoutMs ?? 2000;
    const result = await runStatusCommand(this.#spec.command, {
      cwd: this.#opts.cwd,
      env: {
        ...this.#opts.env,
        COLUMNS: String(this.#opts.columns()),
        CLAUDE_PROJECT_DIR: this.#spec.projectDir,
      },
      input: statusInput(facts, { projectDir: this.#spec.projectDir, started: this.#started }),
      timeoutSec: timeoutMs / 1000,
    });
    const first = result.stdout.split(/\r?\n/).find((line) => line.trim() !== "");
    if (result.code === 0 && first !== undefined) {
      this.#line = " ".repeat(this.#spec.padding) + statusText(first);
      return this.#line;
    }
    this.#warnOnce(
      result.timedOut
        ? `took longer than ${timeoutMs / 1000} s`
        : result.error ?? (result.code === 0
          ? "printed nothing"
          : `exited with code ${result.code}${stderrNote(result.stderr)}`),
    );
    return this.#line;
  }

  #warnOnce(problem: string): void {
    if (this.#warned) return;
    this.#warned = true;
    const kept = this.#line === undefined
      ? "the built-in status line stays"
      : "its last line stays";
    this.#opts.warn(
      `The status-line command "${this.#spec.command}" of ${this.#spec.source} ${problem}: ` +
        `${kept}. Fix the script, or remove it`,
    );
  }
}

function stderrNote(stderr: string): string {
  const first = stderr.trim().split("\n")[0];
  return first ? ` (${statusText(first).slice(0, 200)})` : "";
}

/** Claude Code's status JSON for `facts`. */
function statusInput(
  facts: StatusScriptFacts,
  at: { projectDir: string; started: number },
): Record<string, unknown> {
  const window = facts.contextWindow;
  const used = window > 0 ? Math.round((facts.contextUsed / window) * 100) : null;
  return {
    hook_event_name: "Status",
    session_id: facts.sessionId ?? "",
    transcript_path: facts.sessionFile ?? null,
    cwd: facts.cwd,
    model: { id: facts.model, display_name: facts.model },
    workspace: { current_dir: facts.cwd, project_dir: at.projectDir, added_dirs: [] },
    version: VERSION,
    output_style: { name: "default" },
    cost: {
      total_cost_usd: facts.cost ?? 0,
      total_duration_ms: Date.now() - at.started,
      total_api_duration_ms: 0,
      total_lines_added: 0,
      total_lines_removed: 0,
    },
    context_window: {
      total_input_tokens: facts.tokens.input,
      total_output_tokens: facts.tokens.output,
      context_window_size: window,
      used_percentage: used,
      remaining_percentage: used === null ? null : 100 - used,
      current_usage: null,
    },
    exceeds_200k_tokens: facts.contextUsed > 200_000,
  };
}

/**
 * `line` with colours (SGR) and OSC 8 hyperlinks kept and every other escape sequence and
 * control character removed, so that it cannot move the cursor or clear the screen.
 */
export function statusText(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\x1b") {
      // deno-lint-ignore no-control-regex
      const csi = /^\x1b\[[0-9;:?]*[ -\/]*[@-~]/.exec(line.slice(i));
      // deno-lint-ignore no-control-regex
      const osc = /^\x1b\](\d*);[^\x07\x1b]*(?:\x07|\x1b\\)/.exec(line.slice(i));
      const seq = csi?.[0] ?? osc?.[0];
      if (csi && seq?.endsWith("m")) out += seq;
      else if (osc && osc[1] === "8") out += seq;
      i += (seq?.length ?? 2) - 1;
    } else if (c === "\t") out += " ";
    else if (c >= " " && (c < "\x7f" || c > "\x9f")) out += c;
  }
  return out;
}

/**
 * The status-line script of `session` for a REPL on a terminal, run once before the first
 * prompt; undefined when the session has none or `status_line = false`. Warnings go to `warn`.
 */
export async function startStatusScript(
  session: {
    readonly statusLineScript?: StatusScriptSpec;
    readonly config: { status_line?: boolean };
    status(): StatusScriptFacts;
  },
  opts: Omit<StatusScriptOptions, "columns"> & { columns?: () => number },
): Promise<StatusScript | undefined> {
  const spec = session.statusLineScript;
  if (!spec || session.config.status_line === false) return undefined;
  const script = new StatusScript(spec, { columns: terminalColumns, ...opts });
  await script.refresh(session.status());
  return script;
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}
