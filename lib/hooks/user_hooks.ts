/**
 * The user's hooks in one session: which ones there are, which may run, and running those that
 * match an event. Hooks of the user's own `config.toml` and `hooks.json` run as written; a
 * project's hooks run only once the user trusted their exact definition (`/hooks` or
 * `interpreter trust`; kept in `<home>/trust.json`), or with
 * `--dangerously-bypass-definition-trust`. Matching hooks of one event run at the same time,
 * each as the user's own command (`run_hook.ts`); what they say is read by `hook_output.ts`, and
 * their warnings go to the session's event stream.
 */
import type { EffectiveConfig } from "../config/mod.ts";
import { type HookEvent, isNameList, matchesAll } from "../config/hooks_schema.ts";
import { discoverHooks, type HookDefinition } from "./discovery.ts";
import type { HookEffect } from "./hook_output.ts";
import { grantTrust, readProjectTrust } from "../config/trust_store.ts";

/** Claude Code's `permission_mode` values that ours map to. */
export type HookPermissionMode = "default" | "plan" | "bypassPermissions";

/** What the session tells its hooks about itself, for their input. */
export interface HookSessionFacts {
  sessionId: string;
  /** The session file; null for an ephemeral session. */
  transcriptPath: string | null;
  model: string;
  permissionMode: HookPermissionMode;
  /** The running turn's id; absent between turns. */
  turnId?: string;
}

/** One hook as `/hooks` lists it: `index` counts from 1. */
export interface HookView extends Omit<HookDefinition, "key"> {
  index: number;
  /** Whether it runs: always for the user's own hooks, once trusted for a project's. */
  trusted: boolean;
}

/** The session's hooks as front ends see them (`Session.hooks`, `/hooks`). */
export interface HookHub {
  /** Every hook, in the order of their sources. */
  list(): HookView[];
  /** Trusts the project hooks numbered `indexes` (of `list()`); returns those newly trusted. */
  trust(indexes: number[]): Promise<HookView[]>;
}

/** What `UserHooks.open()` needs besides the config. */
export interface UserHooksOptions {
  cwd: string;
  /** The user's environment, which hook commands run with. */
  env: Record<string, string>;
  /** Run a project's hooks without the user's trust (`--dangerously-bypass-definition-trust`). */
  bypassTrust?: boolean;
  isHeldBack?: (file: string) => boolean;
  warn(message: string): void;
}

/** The events whose matcher is tested (on tool names, `source` or `trigger`). */
const MATCHED: ReadonlySet<HookEvent> = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Notification",
  "SessionStart",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
]);

/** The hooks of one session (see the module comment). */
export class UserHooks implements HookHub {
  readonly #hooks: HookDefinition[];
  readonly #trusted: Set<string>;
  readonly #home: string;
  readonly #projectRoot: string;
  readonly #opts: UserHooksOptions;
  /** The session's facts; set once the session is open. */
  facts: () => HookSessionFacts = () => ({
    sessionId: "",
    transcriptPath: null,
    model: "",
    permissionMode: "default",
  });

  private constructor(
    hooks: HookDefinition[],
    trusted: Set<string>,
    where: { home: string; projectRoot: string },
    opts: UserHooksOptions,
  ) {
    this.#hooks = hooks;
    this.#trusted = trusted;
    this.#home = where.home;
    this.#projectRoot = where.projectRoot;
    this.#opts = opts;
  }

  /** Finds the session's hooks; says in one warning how many of the project's wait for trust. */
  static async open(config: EffectiveConfig, opts: UserHooksOptions): Promise<UserHooks> {
    const found = await discoverHooks(config, { isHeldBack: opts.isHeldBack, env: opts.env });
    for (const warning of found.warnings) opts.warn(warning);
    const project = found.hooks.some((h) => h.scope === "project");
    const trusted = project
      ? (await readProjectTrust(config.home, config.projectRoot, opts.env)).definitions
      : new Set<string>();
    const where = { home: config.home, projectRoot: config.projectRoot };
    const hooks = new UserHooks(found.hooks, trusted, where, opts);
    const waiting = hooks.list().filter((h) => !h.trusted).length;
    if (waiting > 0) {
      opts.warn(
        `${waiting} hook${waiting === 1 ? "" : "s"} of the project "${config.projectRoot}" ` +
          `${waiting === 1 ? "is" : "are"} not trusted yet and will not run: review them with ` +
          '/hooks in the REPL and trust them with /hooks trust N, or with "interpreter trust"',
      );
    }
    return hooks;
  }

  list(): HookView[] {
    return this.#hooks.map((hook, i) => {
      const { key: _, ...rest } = hook;
      return { index: i + 1, ...rest, trusted: this.#runs(hook) };
    });
  }

  async trust(indexes: number[]): Promise<HookView[]> {
    const chosen = indexes.map((i) => this.#hooks[i - 1])
      .filter((hook) => hook !== undefined && !this.#runs(hook));
    if (chosen.length === 0) return [];
    await grantTrust(this.#home, this.#projectRoot, { definitions: chosen.map((h) => h.key) });
    for (const hook of chosen) this.#trusted.add(hook.key);
    const keys = new Set(chosen.map((h) => h.key));
    return this.list().filter((view) => keys.has(this.#hooks[view.index - 1].key));
  }

  /** Whether any hook of `event` may run. */
  has(event: HookEvent): boolean {
    return this.#hooks.some((hook) => hook.event === event && this.#runs(hook));
  }

  /**
   * Runs the hooks of `event` that may run and match one of `names` (a tool's names, a source or
   * a trigger), together, with the session's facts and `fields` as input. Their warnings go to
   * the session; cancelling `signal` kills them and rejects.
   */
  async run(
    event: HookEvent,
    fields: Record<string, unknown>,
    opts: { names?: string[]; signal?: AbortSignal } = {},
  ): Promise<HookEffect[]> {
    const hooks = this.#hooks.filter((hook) =>
      hook.event === event && this.#runs(hook) &&
      (!MATCHED.has(event) || matches(hook.matcher, opts.names ?? []))
    );
    if (hooks.length === 0) return [];
    const input = this.#input(event, fields);
    const root = this.#projectRoot;
    const env = { ...this.#opts.env, CLAUDE_PROJECT_DIR: root, GEMINI_PROJECT_DIR: root };
    // The runner and the output reader load with the first hook that runs, not at start-up.
    const [{ runHookCommand }, { hookEffect }] = await Promise.all([
      import("./run_hook.ts"),
      import("./hook_output.ts"),
    ]);
    const effects = await Promise.all(hooks.map(async (hook) => {
      const result = await runHookCommand(hook.command, {
        cwd: this.#opts.cwd,
        env,
        input,
        timeoutSec: hook.timeoutSec,
        signal: opts.signal,
      });
      return hookEffect(event, result, { label: labelOf(hook), timeoutSec: hook.timeoutSec });
    }));
    for (const effect of effects) effect.warnings.forEach((w) => this.#opts.warn(w));
    return effects;
  }

  #runs(hook: HookDefinition): boolean {
    return hook.scope === "user" || this.#opts.bypassTrust === true || this.#trusted.has(hook.key);
  }

  #input(event: HookEvent, fields: Record<string, unknown>): Record<string, unknown> {
    const facts = this.facts();
    return {
      session_id: facts.sessionId,
      transcript_path: facts.transcriptPath,
      cwd: this.#opts.cwd,
      hook_event_name: event,
      model: facts.model,
      permission_mode: facts.permissionMode,
      ...(facts.turnId ? { turn_id: facts.turnId } : {}),
      ...fields,
    };
  }
}

/** Whether `matcher` matches one of `names` (Codex's rules: names exactly, else a regex). */
export function matches(matcher: string | undefined, names: string[]): boolean {
  if (matcher === undefined || matchesAll(matcher)) return true;
  if (isNameList(matcher)) {
    const wanted = matcher.split("|");
    return names.some((name) => wanted.includes(name));
  }
  const pattern = new RegExp(matcher);
  return names.some((name) => pattern.test(name));
}

function labelOf(hook: HookDefinition): string {
  const command = hook.command.trim().replace(/\s+/g, " ");
  const short = command.length > 60 ? `${command.slice(0, 59)}…` : command;
  return `${hook.event} hook "${short}"`;
}
