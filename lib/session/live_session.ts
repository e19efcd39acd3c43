/**
 * The session every front end drives: it runs one prompt at a time through the agent loop,
 * keeps the session file in step, switches model and harness on the same history, and reports
 * everything as one typed event stream. Opened by `openSession()` (open.ts).
 */
import type { ConfigValues } from "../config/schema.ts";
import { promptMessages, withoutContext } from "../harness/context.ts";
import { runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import type { Block, Message, OutputSchema, Usage } from "../model/message.ts";
import { snapshotState } from "../tools/session_state.ts";
import { type JobInfo, JOBS_RESOURCE } from "../tools/shell_jobs.ts";
import type { McpHub } from "../tools/mcp_hub.ts";
import type { HookHub } from "../hooks/user_hooks.ts";
import type { RepoGit } from "../workspace/repo_git.ts";
import { fittingHarnesses, harnessChoices, providerChoices } from "./choices.ts";
import { contextTokens, loadTokenizer } from "./compaction.ts";
import { compactSession, mentionedSkills } from "./history_parts.ts";
import { CostMeter } from "./cost.ts";
import type { SteerInbox } from "./steer.ts";
import { type ReplayedHistory, replayedHistory } from "./replay_history.ts";
import { chargeCost, sessionStatusOf, sessionTimersOf, setSessionGoal } from "./status.ts";
import { disposeState } from "./_dispose_state.ts";
import { TurnInProgressError } from "./errors.ts";
import { checkedTurn } from "./structured_output.ts";
import { sourcePlacementOf, toolHooksOf, turnContextOf, type TurnSetup } from "./turn_context.ts";
import type { SessionCommands } from "./custom_commands.ts";
import { LiveSetups } from "./live_setups.ts";
import { configureSession, type ConfigureTarget, routeInUse, settingsOf } from "./configure.ts";
import { type ServedList, servedLists } from "./settings_check.ts";
import { Checkpoints, sessionCheckpoints } from "./checkpoints/checkpoints.ts";
import type {
  CheckpointList,
  ConfirmOverwrite,
  RewindChoice,
  RewindResult,
  StopRunning,
} from "./checkpoints/checkpoint_types.ts";
import { openReadOnlySandbox, PlanMode } from "./plan_mode.ts";
import type { LiveParts, RunningTurn, SessionParts, SessionState } from "./session_parts.ts";
import type {
  ConfigureOptions,
  PromptOptions,
  PromptOutcome,
  ProposedPlan,
  ReasoningEffort,
  Session,
  SessionInfo,
  SessionSettings,
  SessionStatus,
  SettingsUpdate,
  SkillListing,
} from "./types.ts";

/** A running session (see the module comment). */
export class LiveSession implements Session {
  readonly id: string;
  readonly info: SessionInfo;
  readonly #p: SessionParts;
  readonly #state: SessionState;
  readonly #live: LiveParts;
  #turn: RunningTurn | undefined;
  readonly #cost = new CostMeter();
  /** Warnings the turns gave (tool names that collide): each is shown once a session. */
  readonly #warned = new Set<string>();
  #steer: SteerInbox | undefined; // made at the first steered line
  readonly #plan: PlanMode;
  readonly #checkpoints: Checkpoints;
  /** The servers' model lists the last `models()` read: `configure()` checks names against them. */
  #served = new Map<string, ServedList>();

  constructor(parts: SessionParts) {
    this.#p = parts;
    this.#state = parts.state;
    this.#live = parts.live;
    this.id = parts.live.recorder.id;
    this.info = parts.info;
    this.#checkpoints = sessionCheckpoints(parts);
    const { agent } = parts.live;
    this.#plan = new PlanMode({
      openSandbox: () =>
        openReadOnlySandbox({ home: this.home, networkAccess: agent.sandbox.networkAllowed }),
      onDenied: (reason, callId) => parts.io.onEvent({ type: "tool_denied", callId, reason }),
      setByTool: (on) => void configureSession(this.#configureTarget(), { planMode: on }),
    });
    // A resumed session continues in plan mode when it stopped in it.
    if (parts.live.recorder.resumedPlanMode) this.#plan.set(true);
    parts.hooks.describe(() => ({
      sessionId: this.id,
      transcriptPath: parts.live.recorder.file ?? null,
      model: this.#state.loop.model,
      planMode: this.#plan.on,
      approvalPolicy: agent.sandbox.policy,
    }));
  }

  get config(): ConfigValues {
    return this.#live.agent.config.values;
  }

  get home(): string {
    return this.#live.agent.config.home;
  }

  get statusLineScript(): Session["statusLineScript"] {
    return this.#setups.statusLineScript;
  }

  /** Every request's tokens: the turns', the sub-agents' and the compactions'. */
  get usage(): Usage {
    return this.#state.loop.usage;
  }

  async prompt(
    input: string | Block[],
    signal: AbortSignal,
    opts: PromptOptions = {},
  ): Promise<PromptOutcome> {
    this.#claimTurn(undefined, opts.allowedRules);
    try {
      const hooked = await this.#p.hooks.prompt(input, signal);
      if (hooked === undefined) return { status: "aborted" };
      const blocks: Block[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
      await this.#checkpoints.begin(blocks);
      const skills = await mentionedSkills(this.#p, input);
      const planned = await this.#plan.startTurn(hooked, this.#state.toolState);
      const schema = opts.outputSchema;
      const outcome = schema
        ? await checkedTurn(
          schema,
          () => this.#runTurn(planned, signal, schema.wire, skills),
          (correction) => this.#runTurn(correction, signal, schema.wire),
        )
        : await this.#runTurn(planned, signal, undefined, skills);
      this.#plan.endTurn(this.#state.toolState, this.#state.loop.messages);
      return outcome;
    } finally {
      await this.#checkpoints.end();
      this.#p.hooks.endTurn();
      this.#turn = undefined;
    }
  }

  get planMode(): boolean {
    return this.#plan.on;
  }

  setPlanMode(on: boolean): void {
    // Plan mode alone opens nothing and cannot be refused: it applies before this returns.
    void this.configure({ planMode: on }).catch((error: Error) => this.#warn(error.message));
  }

  proposedPlan(): ProposedPlan | undefined {
    return this.#plan.proposal();
  }

  /** Summarizes the history now (`/compact`). */
  compact(signal: AbortSignal): Promise<void> {
    const compact = () => this.#compact(signal);
    return this.#alone("a compaction", () => this.#p.hooks.compaction("manual", signal, compact));
  }

  /** One turn at a time: a second one while one runs would interleave two histories. */
  #claimTurn(what?: string, allow?: readonly string[]): void {
    if (this.#turn) throw new TurnInProgressError(what);
    this.#turn = { callId: "", allow };
  }

  /** Runs `work` (`what`: "an undo") in place of a turn: refused while one runs, and the reverse. */
  async #alone<T>(what: string, work: () => Promise<T>): Promise<T> {
    this.#claimTurn(what);
    try {
      return await work();
    } finally {
      this.#turn = undefined;
    }
  }

  /** Runs one turn on `input`; `skills` (`$name` mentions) follow the prompt in the history. */
  async #runTurn(
    input: string | Block[],
    signal: AbortSignal,
    outputSchema?: OutputSchema,
    skills: Message[] = [],
  ): Promise<TurnOutcome> {
    const { loop, context } = this.#state;
    const { recorder } = this.#live;
    const values = this.config;
    loop.outputSchema = outputSchema;
    const blocks: Block[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
    // A resumed conversation already had the harness's opening context.
    loop.messages.push(...promptMessages(context, blocks, loop.messages.length === 0), ...skills);
    recorder.syncMessages();
    const setup = this.#turnSetup();
    const toolHooks = toolHooksOf(setup);
    const outcome = await this.#p.hooks.untilStopped(loop, signal, () =>
      runTurn(loop, {
        provider: this.#live.provider,
        harness: this.#state.harness,
        ctx: turnContextOf(setup, signal, toolHooks),
        emit: (event) => this.#emit(event),
        toolHooks,
        toolSources: this.#p.toolSources,
        sourcePlacement: sourcePlacementOf(setup),
        warn: (message) => this.#warnOnce(message),
        beforeRequest: (s) =>
          this.#beforeRequest(s).then((stop) => stop ?? this.#steer?.deliver(loop.messages)),
        maxSteps: values.max_turn_steps,
        toolCallRepair: values.tool_call_repair,
        signal,
      })).finally(() => this.#steer?.endTurn());
    if (outcome.status === "repeated_call") {
      const route = routeInUse(this.#configureTarget());
      outcome.harnesses = await fittingHarnesses(
        this.#live.agent,
        route,
        this.#state.limits.family,
      );
    }
    await recorder.flush().catch((error: Error) =>
      this.#warn(`Cannot save the session: ${error.message}`)
    );
    return outcome;
  }

  /** Stops at the budget; compacts when the history is near the window (not before an answer). */
  async #beforeRequest(signal: AbortSignal): Promise<TurnOutcome | void> {
    const overBudget = chargeCost(this.#p, this.#cost);
    if (overBudget) return overBudget;
    const { loop, limits } = this.#state;
    await loadTokenizer(loop, limits.compactAt);
    if (contextTokens(loop) < limits.compactAt) return;
    if (!loop.messages.some((m) => m.role === "assistant")) return;
    await this.#p.hooks.compaction("auto", signal, () => this.#compact(signal))
      .catch((error: Error) => this.#warn(error.message));
  }

  #compact(signal: AbortSignal): Promise<void> {
    return compactSession(this.#p, signal);
  }

  #emit(event: LoopEvent): void {
    if (event.type === "tool_start" && this.#turn) this.#turn.callId = event.call.id;
    // Each message is written as soon as the loop has it; a tool result when the next event comes.
    if (["model_request", "assistant_message", "tool_end", "turn_end"].includes(event.type)) {
      this.#live.recorder.syncMessages();
    }
    if (event.type === "tool_end" || event.type === "turn_end") this.#saveToolState();
    if (event.type === "tool_calls_repaired") this.#state.repairs += event.count;
    this.#p.io.onEvent(event);
  }

  #warn(message: string): void {
    this.#p.io.onEvent({ type: "warning", message });
  }

  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.#warn(message);
  }

  /** Written when it changed, after every tool call: a kill -9 loses at most the running call. */
  #saveToolState(): void {
    const snapshot = snapshotState(this.#state.toolState);
    const text = JSON.stringify(snapshot);
    if (text === this.#state.savedToolState) return;
    this.#state.savedToolState = text;
    this.#live.recorder.append({ type: "tool_state", state: snapshot });
  }

  /** What a turn's tools are set up from (turn_context.ts). */
  #turnSetup(): TurnSetup {
    return {
      parts: this.#p,
      plan: this.#plan,
      currentCall: () => this.#turn?.callId ?? "",
      turnAllow: () => this.#turn?.allow,
      budgetStop: () => chargeCost(this.#p, this.#cost),
    };
  }

  get settings(): SessionSettings {
    return settingsOf(this.#configureTarget());
  }

  /** One change at a time, and never while a turn runs (`TurnInProgressError`). */
  async configure(update: SettingsUpdate, opts?: ConfigureOptions): Promise<SessionSettings> {
    if (update.model !== undefined) chargeCost(this.#p, this.#cost);
    const apply = () => configureSession(this.#configureTarget(), update, opts);
    // Plan mode alone applies at once (see configureSession()), even during a turn.
    if (Object.keys(update).every((key) => key === "planMode")) return apply();
    return await this.#alone("a settings change", apply);
  }

  readonly switchHarness = (id: string) => this.configure({ harness: id }).then(() => {});
  async steer(text: string): Promise<boolean> {
    this.#steer ??= new (await import("./steer.ts")).SteerInbox();
    return this.#steer.add(text, this.#turn !== undefined);
  }

  async switchModel(spec: string, effort?: ReasoningEffort): Promise<void> {
    await this.configure({ model: spec, ...(effort ? { reasoningEffort: effort } : {}) });
  }

  #configureTarget(): ConfigureTarget {
    return { parts: this.#p, plan: this.#plan, served: this.#served };
  }

  async models() {
    const current = { provider: this.settings.provider, model: this.settings.model };
    const choices = await providerChoices(this.#live.agent, { ...this.#p, current });
    this.#served = servedLists(choices);
    return choices;
  }

  status(): SessionStatus {
    return sessionStatusOf(this.#p, this.#cost);
  }

  harnesses() {
    return harnessChoices(this.#live.agent, routeInUse(this.#configureTarget()));
  }

  jobs(): JobInfo[] {
    return this.#live.resources.get(JOBS_RESOURCE)?.list() ?? [];
  }

  async stopJob(id: string): Promise<JobInfo & { wasRunning: boolean }> {
    const registry = this.#live.resources.get(JOBS_RESOURCE);
    if (!registry) throw new Error(`No background job "${id}"`);
    return await registry.stop(id);
  }

  readonly diff = (): Promise<string> => this.#live.agent.workspace.diff();

  checkpoints(): Promise<CheckpointList> {
    return this.#checkpoints.list();
  }

  undo(confirm: ConfirmOverwrite, stop?: StopRunning): Promise<RewindResult> {
    return this.#alone("an undo", () => this.#checkpoints.undo(confirm, stop));
  }

  rewind(turn: number, what: RewindChoice, confirm: ConfirmOverwrite, stop?: StopRunning) {
    return this.#alone("a rewind", () => this.#checkpoints.rewind(turn, what, confirm, stop));
  }

  /** `/fork`: the session as saved so far copied into a new one; this one goes on. */
  fork(turn?: number) {
    return this.#alone("a fork", () => this.#live.recorder.fork(this.home, turn));
  }

  readonly git: RepoGit = (args) => this.#live.agent.workspace.repoGit(args);
  readonly timers = (take?: "due") => sessionTimersOf(this.#p, take);
  readonly setGoal = (o?: string) => setSessionGoal(this.#p, o).then(() => this.#saveToolState());

  async skills(): Promise<SkillListing[]> {
    const { agent } = this.#live;
    const found = await agent.workspace.skills(agent.sandbox.fs);
    return found.map(({ name, description, path, scope }) => ({ name, description, path, scope }));
  }

  history(): Message[] {
    return withoutContext(this.#state.loop.messages);
  }

  replayHistory(): ReplayedHistory {
    return replayedHistory(this.history(), this.#state.harness);
  }

  /** The MCP servers started from `[mcp_servers]`. */
  get mcp(): McpHub {
    return this.#live.mcp;
  }

  /** The user's hooks (`/hooks`). */
  get hooks(): HookHub {
    return this.#p.hooks.hub;
  }

  /** Custom commands, defined sub-agents, permission rules, the status-line script. */
  readonly #setups = new LiveSetups(() => this.#live.agent, () => this.#turnSetup());
  readonly commands: SessionCommands = this.#setups.commands;
  readonly definedAgents = () => this.#setups.definedAgents();
  readonly permissionRules = () => this.#setups.permissionRules();
  readonly addPermissionRule: LiveSetups["addPermissionRule"] = (list, rule, o) =>
    this.#setups.addPermissionRule(list, rule, o);
  readonly debugConfig = () => this.#setups.debugConfig();

  async [Symbol.asyncDispose](): Promise<void> {
    this.#saveToolState();
    await disposeState(this.#state.toolState, this.#live.resources);
    await this.#plan[Symbol.asyncDispose]();
    await this.#checkpoints[Symbol.asyncDispose]();
    await this.#live.mcp[Symbol.asyncDispose]();
    await this.#live.recorder.close();
    await this.#live.agent[Symbol.asyncDispose]();
  }
}
