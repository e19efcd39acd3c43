/**
 * A session's hooks at its seams (lib/hooks has the hooks themselves): SessionStart when it
 * opens or after a compaction, its context going with the next prompt; UserPromptSubmit before a
 * prompt, whose context follows the prompt's text; PreCompact and PostCompact around a
 * compaction; Stop when a turn ends, which may send the model back to work with the hook's reason
 * as a user message; PreToolUse and PostToolUse as the first link of the tool-hook chain; and
 * PermissionRequest in front of the user's answer to an approval question; Notification while
 * an approval or a question waits for the user; and Codex's `notify` program after each turn.
 */
import type { ApprovalPolicy } from "../config/schema.ts";
import type { HookTurn, ToolHook } from "../loop/tool_hooks.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import type { TurnOutcome } from "../loop/events.ts";
import type { Block } from "../model/message.ts";
import { type HookSessionFacts, UserHooks } from "../hooks/user_hooks.ts";
import { userHooksLink } from "../hooks/user_tool_link.ts";
import type { CompactTrigger, SessionStartSource } from "../hooks/session_events.ts";
import type { SubagentHooks } from "./subagent.ts";
import type { AgentSession } from "./agent_session.ts";
import type { SessionRelay } from "./relay.ts";
import type { SessionConfig } from "./types.ts";
import type { TurnNotice } from "./notify.ts";

/** What the session tells its hooks about itself. */
export interface SessionFacts {
  sessionId: string;
  transcriptPath: string | null;
  model: string;
  planMode: boolean;
  approvalPolicy: ApprovalPolicy;
}

/**
 * The hooks' event handlers, loaded when a hook of theirs may run (`UserHooks.has()`): a session
 * without hooks never loads them. Without such a hook each handler would answer "nothing".
 */
function events() {
  return import("../hooks/session_events.ts");
}

/** PreCompact and PostCompact of a session with neither. */
const NO_COMPACT_HOOKS = {
  compactionVeto: (..._: unknown[]): Promise<string | undefined> => Promise.resolve(undefined),
  compacted: (..._: unknown[]): Promise<void> => Promise.resolve(),
};

/** How many times in a row Stop hooks may keep one turn going before it ends anyway. */
const MAX_STOP_CONTINUATIONS = 8;

/** The session's hooks (see the module comment). */
export class SessionHooks {
  /** The hooks themselves: their list and trust (`Session.hooks`). */
  readonly hub: UserHooks;
  readonly #cwd: string;
  readonly #warn: (message: string) => void;
  /** SessionStart context waiting for the next prompt. */
  #pending: string[] = [];
  /**
   * Results of background sub-agents the model has not read, once none runs (the session's
   * agent pool sets it when made): a turn that ends goes on with them.
   */
  agentNotices?: (signal: AbortSignal) => Promise<string | undefined>;
  #turnId: string | undefined;
  /** The running turn's prompt text and last outcome, for `notify`. */
  #turn: { inputs: string[]; outcome?: TurnOutcome } | undefined;
  /** Runs the `notify` program after a turn; undefined without one. */
  readonly #notify: ((notice: Omit<TurnNotice, "client">) => void) | undefined;

  private constructor(
    hub: UserHooks,
    cwd: string,
    warn: (message: string) => void,
    notify?: (notice: Omit<TurnNotice, "client">) => void,
  ) {
    this.hub = hub;
    this.#cwd = cwd;
    this.#warn = warn;
    this.#notify = notify;
  }

  /**
   * Finds the hooks of the session `agent` opened (a warning names a project's untrusted ones)
   * and puts PermissionRequest hooks in front of the user's approvals through `relay`.
   */
  static async open(
    agent: AgentSession,
    opts: {
      config: SessionConfig;
      env: Record<string, string>;
      relay: SessionRelay;
      warn: (message: string) => void;
    },
  ): Promise<SessionHooks> {
    const { config, env, warn } = opts;
    const hub = await UserHooks.open(agent.config, {
      cwd: config.cwd,
      env,
      bypassTrust: config.bypassDefinitionTrust,
      isHeldBack: agent.workspace.isHeldBack,
      warn,
    });
    opts.relay.answerFirst(async (req, signal) =>
      hub.has("PermissionRequest")
        ? (await events()).permissionAnswer(hub, req, { cwd: config.cwd, signal })
        : undefined
    );
    opts.relay.whenWaiting((waiting) => {
      if (!hub.has("Notification")) return;
      events().then((e) => e.notification(hub, waiting, config.cwd)).catch((error: Error) =>
        warn(`A Notification hook failed: ${error.message}`)
      );
    });
    const argv = agent.config.values.notify;
    const client = `interpreter-${config.origin ?? "exec"}`;
    const notify = argv && (await import("./notify.ts")).notifier(argv, { client, env, warn });
    return new SessionHooks(hub, config.cwd, warn, notify);
  }

  /**
   * Tells the hooks about the session: their input's `session_id`, `transcript_path`, `model`,
   * and `permission_mode` ("plan" in plan mode, "bypassPermissions" when nothing is asked).
   */
  describe(facts: () => SessionFacts): void {
    this.hub.facts = (): HookSessionFacts => {
      const { planMode, approvalPolicy, ...rest } = facts();
      const permissionMode = planMode
        ? "plan"
        : approvalPolicy === "never"
        ? "bypassPermissions"
        : "default";
      return { ...rest, permissionMode, ...(this.#turnId ? { turnId: this.#turnId } : {}) };
    };
  }

  /** SessionStart: its context goes with the next prompt. */
  async started(source: SessionStartSource): Promise<void> {
    if (!this.hub.has("SessionStart")) return;
    this.#pending.push(...await (await events()).sessionStartContext(this.hub, source));
  }

  /**
   * Starts a turn on `input`: UserPromptSubmit (a `PromptBlockedError` when a hook blocks it),
   * then the prompt with the hooks' context around it; `input` itself when there is none, and
   * undefined when `signal` stopped the hooks.
   */
  async prompt(
    input: string | Block[],
    signal: AbortSignal,
  ): Promise<string | Block[] | undefined> {
    this.#turnId = crypto.randomUUID();
    const blocks: Block[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
    const text = blocks.flatMap((b) => b.type === "text" ? [b.text] : []).join("\n");
    this.#turn = { inputs: [text] };
    if (this.#pending.length === 0 && !this.hub.has("UserPromptSubmit")) return input;
    const { promptContext } = await events();
    const after = await promptContext(this.hub, text, signal).catch((error) => {
      if (signal.aborted) return undefined;
      throw error;
    });
    if (after === undefined) return undefined;
    const before = this.#pending.splice(0);
    if (before.length === 0 && after.length === 0) return input;
    const note = (text: string): Block => ({ type: "text", text });
    return [...before.map(note), ...blocks, ...after.map(note)];
  }

  /** The turn ended: the `notify` program hears of it, unless it was stopped. */
  endTurn(): void {
    const [turnId, turn] = [this.#turnId, this.#turn];
    this.#turnId = this.#turn = undefined;
    if (!this.#notify || !turnId || !turn?.outcome || turn.outcome.status === "aborted") return;
    this.#notify({
      threadId: this.hub.facts().sessionId,
      turnId,
      cwd: this.#cwd,
      inputMessages: turn.inputs,
      lastAssistantMessage: "finalText" in turn.outcome ? turn.outcome.finalText || null : null,
    });
  }

  /** The first link of a turn's tool-hook chain: PreToolUse and PostToolUse hooks. */
  readonly toolLink = (turn: HookTurn): ToolHook | undefined =>
    userHooksLink(this.hub, turn, this.#cwd);

  /** SubagentStart and SubagentStop around each sub-agent; undefined when neither has hooks. */
  subagentHooks(): SubagentHooks | undefined {
    const hub = this.hub;
    if (!hub.has("SubagentStart") && !hub.has("SubagentStop")) return undefined;
    return {
      started: async (agent, signal) => (await events()).subagentStartContext(hub, agent, signal),
      stopping: async (agent, signal) =>
        (await events()).subagentStopContinuation(hub, agent, signal),
      warn: this.#warn,
    };
  }

  /**
   * Runs a turn, then runs it on as long as a Stop hook keeps it going: the hook's reason is
   * added as a user message (at most MAX_STOP_CONTINUATIONS times).
   */
  async untilStopped(
    loop: LoopState,
    signal: AbortSignal,
    run: () => Promise<TurnOutcome>,
  ): Promise<TurnOutcome> {
    let outcome = await this.#withAgentNotices(loop, signal, run);
    if (this.#turn) this.#turn.outcome = outcome;
    if (!this.hub.has("Stop")) return outcome;
    const { stopContinuation } = await events();
    for (let times = 0; outcome.status === "completed" && !signal.aborted; times++) {
      const reason = await stopContinuation(this.hub, {
        active: times > 0,
        lastMessage: outcome.finalText,
      }, signal).catch((error) => {
        if (signal.aborted) return undefined;
        throw error;
      });
      if (reason === undefined) break;
      if (times === MAX_STOP_CONTINUATIONS) {
        this.#warn(
          `Stop hooks kept the turn going ${times} times in a row; it ends here. A Stop hook ` +
            "can read stop_hook_active from its input to let a turn end",
        );
        break;
      }
      loop.messages.push({ role: "user", blocks: [{ type: "text", text: reason }] });
      outcome = await this.#withAgentNotices(loop, signal, run);
      if (this.#turn) this.#turn.outcome = outcome;
    }
    return outcome;
  }

  /** Runs the turn, then on with each notice of background sub-agents' results. */
  async #withAgentNotices(
    loop: LoopState,
    signal: AbortSignal,
    run: () => Promise<TurnOutcome>,
  ): Promise<TurnOutcome> {
    let outcome = await run();
    while (this.agentNotices && outcome.status === "completed" && !signal.aborted) {
      const notice = await this.agentNotices(signal);
      if (notice === undefined || signal.aborted) break;
      loop.messages.push({ role: "user", blocks: [{ type: "text", text: notice }] });
      outcome = await run();
    }
    return outcome;
  }

  /**
   * A compaction: PreCompact may call it off (a warning says why); after it, PostCompact, and
   * SessionStart with source "compact", whose context goes with the next prompt.
   */
  async compaction(
    trigger: CompactTrigger,
    signal: AbortSignal,
    compact: () => Promise<void>,
  ): Promise<void> {
    const hooked = this.hub.has("PreCompact") || this.hub.has("PostCompact");
    const { compactionVeto, compacted } = hooked ? await events() : NO_COMPACT_HOOKS;
    const veto = await compactionVeto(this.hub, trigger, signal);
    if (veto !== undefined) {
      this.#warn(`A PreCompact hook called the compaction off: ${veto}`);
      return;
    }
    await compact();
    await compacted(this.hub, trigger);
    await this.started("compact");
  }
}
