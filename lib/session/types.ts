/**
 * The session's public types: what a front end gives `openSession()`, what it gets back, and
 * the events it is told. (lib/session/open.ts opens sessions and re-exports these.)
 */
import type { Timer } from "../tools/schedule.ts";
import type {
  ApprovalAnswer,
  ApprovalAsk,
  ApprovalQuestion,
  ApprovalReply,
} from "../approval/hook.ts";
import type { ConfigOverride } from "../config/mod.ts";
import type { RunnableDefinition } from "../config/project_definitions.ts";
import type { ApprovalPolicy, ConfigValues, LocalProvider, SandboxMode } from "../config/schema.ts";
import type { Harness, PromptVars } from "../harness/types.ts";
import type { WireApi } from "../model/request_settings.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import type { Block, Message, Usage } from "../model/message.ts";
import type { ForkedSession, SessionOrigin } from "../store/mod.ts";
import type { SkillScope, UserAnswers, UserQuestion } from "../tools/types.ts";
import type { JobInfo } from "../tools/shell_jobs.ts";
import type { McpHub } from "../tools/mcp_hub.ts";
import type { HookHub } from "../hooks/user_hooks.ts";
import type { ToolSource } from "../tools/tool_source.ts";
import type { RepoGit } from "../workspace/repo_git.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { AnswerSchema, SchemaViolation } from "./structured_output.ts";
import type { ReplayedHistory } from "./replay_history.ts";
import type { ApprovalView } from "./tool_views/approval_view.ts";
import type { SessionSetups } from "./setup_types.ts";
import type {
  ConfigureOptions,
  ProviderChoice,
  ReasoningEffort,
  SessionSettings,
  SettingsUpdate,
} from "./settings_types.ts";
import type {
  CheckpointList,
  ConfirmOverwrite,
  RewindChoice,
  RewindResult,
  StopRunning,
} from "./checkpoints/checkpoint_types.ts";

export type { ConfigOverride } from "../config/mod.ts";
export type {
  ConfigureOptions,
  ModelChoice,
  ProviderChoice,
  ReasoningEffort,
  SessionSettings,
  SettingsUpdate,
} from "./settings_types.ts";
export type { ApprovalPolicy, SandboxMode, SessionOrigin, ToolSource, WireApi };

/**
 * The saved session to continue: `{ id }` is a session id, the start of one, a session file or a
 * session's name (the command line; the editor protocols take whole ids only, `resolveOpening()`);
 * `{ last }` the newest one that holds a user message, of the working directory unless `all`,
 * of one origin when `origin` is given.
 */
export type ResumeTarget =
  | { id: string }
  | { last: true; all?: boolean; origin?: SessionOrigin };

/** The settings a session's typed values name, for `SessionConfig.labels`. */
export type LabelledSetting =
  | "model"
  | "provider"
  | "sandbox"
  | "approval"
  | "harness"
  | "reasoningEffort";

/**
 * What a session is opened with: typed values, each over the config files' (a value left out
 * keeps the config's). The front end maps its own input (flags, a protocol's request) onto it.
 */
export interface SessionConfig {
  /** The working directory, absolute. */
  cwd: string;
  model?: string;
  /** A `model_providers` id. */
  provider?: string;
  /** A harness id; "" or absent picks one for the model. */
  harness?: string;
  /** A `[profiles.NAME]` table of config.toml. */
  profile?: string;
  sandbox?: SandboxMode;
  approval?: ApprovalPolicy;
  /** Talk to the provider over this wire API (`"chat"`: `--chat-completions`). */
  wireApi?: WireApi;
  reasoningEffort?: ReasoningEffort;
  /** Extra writable roots, absolute, added to `sandbox_workspace_write.writable_roots`. */
  writableRoots?: string[];
  /** Use a local provider: `true` for the configured one (`oss_provider`, else Ollama). */
  oss?: boolean | LocalProvider;
  /** Recorded in the session file's header; default "exec". */
  origin?: SessionOrigin;
  /** A saved session to continue, looked up by `resolveOpening()`; its history is restored. */
  resume?: ResumeTarget;
  /** Save nothing. */
  ephemeral?: boolean;
  /** Start in a new git worktree of this name (`true`: a generated one), `--worktree`. */
  worktree?: string | true;
  /** Config values by key path, after the config files and profile, in order. */
  overrides?: ConfigOverride[];
  /** Run outside a git repository (the trust check, `checkTrustedDirectory()`). */
  skipGitRepoCheck?: boolean;
  /**
   * How `debug config` names where a typed value came from: `--yolo` for the sandbox, say.
   * Default: the command-line flag that sets it (`--model`, `--sandbox`, …).
   */
  labels?: Partial<Record<LabelledSetting, string>>;
  /** Builds a system prompt in place of the harness's (a review's reviewer prompt). */
  instructions?: (harness: Harness, vars: PromptVars) => string;
  /**
   * Refuse to open (exit code 2) when commands cannot run in the sandbox and nothing can let
   * them run without it: no approver, or approval_policy never (exec).
   */
  requireSandbox?: boolean;
  /**
   * Run a trusted project's hooks and MCP servers without the user's trust in each definition,
   * for automation (`--dangerously-bypass-definition-trust`, formerly
   * `--dangerously-bypass-hook-trust`).
   */
  bypassDefinitionTrust?: boolean;
}

/**
 * What `io.approve()` is asked: the tool call it is about (id, tool name), the question, and the
 * question as front ends show it (`view`, built once for all of them).
 */
export type ApprovalRequest = ApprovalAsk & { view: ApprovalView };

/** What the banner and `/status` show. */
export interface SessionInfo {
  cwd: string;
  model: string;
  provider: string;
  wireApi: string;
  harness: string;
  /** The harness's lean surface when asked for, after the id: "lean: 0.6B parameters". */
  surface?: string;
  /** Why the harness was chosen: a route, `[match]`, a reported family, the wire, config. */
  harnessReason?: string;
  /** The harness's folder (its data: spec, prompts, tool files). */
  harnessDir?: string;
  /** `sandbox: …` and `approval: …` lines. */
  sandbox: string;
  /** The one-line note when the model's context window is a guess. */
  contextNote?: string;
  /** The git worktree the session works in: name, branch and folder. */
  worktree?: string;
}

/** Everything a session reports, in order. Loop events pass through unchanged. */
export type SessionEvent =
  | { type: "session_started"; info: SessionInfo }
  | { type: "warning"; message: string }
  | { type: "approval_requested"; callId?: string; question: ApprovalQuestion }
  | { type: "approval_resolved"; callId?: string; answer: ApprovalAnswer; note?: string }
  /** A pending approval or question (`user.ask`) of call `callId` ended by the turn's cancel. */
  | { type: "approval_withdrawn"; callId: string }
  | { type: "tool_denied"; callId?: string; reason: string }
  | { type: "subagent"; parentCallId?: string; label: string; event: LoopEvent }
  | { type: "harness_switched"; harness: string }
  | {
    type: "model_switched";
    model: string;
    provider: string;
    /** The reasoning effort in use from now on, when one is set. */
    reasoningEffort?: ReasoningEffort;
    contextNote?: string;
  }
  | { type: "compacted"; tokensBefore: number; tokensAfter: number }
  | LoopEvent;

/** One skill as `/skills` lists it: `scope` says where it comes from (repo, user or system). */
export interface SkillListing {
  name: string;
  description: string;
  /** Absolute path of its SKILL.md. */
  path: string;
  scope: SkillScope;
}

/** What `/status` shows. */
export interface SessionStatus extends SessionInfo {
  sandboxMode: string;
  /** The harness in use talks a text protocol: it is offered no tool-source tools (MCP). */
  textProtocol?: boolean;
  approval: string;
  network: boolean;
  sessionId?: string;
  sessionFile?: string;
  contextUsed: number;
  contextWindow: number;
  /** Tool calls recovered from reply text; undefined while `tool_call_repair = false`. */
  toolCallRepairs?: number;
  /** Tokens over every request so far; `input` counts the `cached` ones too. */
  tokens: { input: number; output: number; cached: number };
  /**
   * USD spent so far at the catalog's prices of the model(s) used; undefined when a model in use
   * has no prices there.
   */
  cost?: number;
  reasoningEffort?: string;
  /** The session's goal (used and budget as "1200 tokens", budget "" without one); absent without. */
  goal?: { objective: string; status: string; used: string; budget: string };
  /** One line per pending wake-up or cron job. */
  timers?: string[];
}

/** What the front end supplies. */
export interface SessionIO {
  onEvent(event: SessionEvent): void;
  /**
   * Asks the user to approve a tool call; absent when no one can answer. `signal` fires when the
   * turn is cancelled: withdraw the question then.
   */
  approve?(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply>;
  /**
   * Puts the model's questions to the user (tool call `callId`); null when dismissed; absent
   * when no one can answer. `signal` fires when the turn is cancelled.
   */
  askUser?(
    questions: UserQuestion[],
    meta: { callId: string },
    signal: AbortSignal,
  ): Promise<UserAnswers>;
  /**
   * Asks whether to trust the runnable definitions (hooks, MCP servers) of a trusted project
   * that the user has not trusted yet, before any of them starts; true trusts them all. Absent
   * when no one can answer: they stay off, and a warning says how to trust them.
   */
  trustDefinitions?(ask: DefinitionTrustQuestion): Promise<boolean>;
}

/** What `io.trustDefinitions()` is asked about. */
export interface DefinitionTrustQuestion {
  projectRoot: string;
  definitions: RunnableDefinition[];
}

/** What `openSession()` may be given besides the config and the I/O. */
export interface SessionDeps {
  /** The environment the session sees; default the process's. */
  env?: Record<string, string>;
  /**
   * Tools that do not come from the harness (MCP servers, a front end's own), offered in every
   * turn under the harness's naming for source tools, sub-agents included.
   */
  toolSources?: readonly ToolSource[];
  /**
   * An open workspace at `config.cwd` (opened with the session's home) to work in: the session
   * uses it and leaves it open. Without it (every front end; eval's trials run `interpreter exec`)
   * the session opens its own and closes it when disposed.
   */
  workspace?: Workspace;
}

/** Options of one prompt: the JSON Schema its final answer must match (`--output-schema`). */
export interface PromptOptions {
  /**
   * The answer must be JSON that matches it: a mismatch gets one corrective turn, then the turn
   * fails naming the violation (`SchemaViolation`).
   */
  outputSchema?: AnswerSchema;
  /** Rules approving matching calls this turn only (a command's `allowed-tools`); no wider sandbox. */
  allowedRules?: string[];
}

export type { AnswerSchema, SchemaViolation };
export type {
  CheckpointList,
  CheckpointTurn,
  ConfirmOverwrite,
  RewindChoice,
  RewindResult,
  StopRunning,
} from "./checkpoints/checkpoint_types.ts";

/** How a prompt ended. */
export type PromptOutcome = TurnOutcome | SchemaViolation;

/** A plan a turn in plan mode proposed (`Session.proposedPlan()`). */
export interface ProposedPlan {
  steps: string[];
  /**
   * Where it came from: a plan tool's call (ExitPlanMode), the plan or todo list the model wrote
   * in the turn, or its answer.
   */
  source: "plan_tool" | "plan_list" | "answer";
  /** The plan as the model wrote it, when it came as text. */
  text?: string;
}

/** A running session. Dispose it to stop its jobs, helpers and sandbox. */
export interface Session extends AsyncDisposable, SessionSetups {
  /** The session's id, from the start: the saved file's, or a fresh one for an ephemeral one. */
  readonly id: string;
  readonly info: SessionInfo;
  /** The merged config values (`hide_agent_reasoning`, `history.persistence`, …). */
  readonly config: ConfigValues;
  /** The interpreter home (`~/.openinterpreter`). */
  readonly home: string;
  /** Tokens used so far over every request: the turns', their sub-agents' and the compactions'. */
  readonly usage: Usage;
  /**
   * Runs one user turn to its end; `signal` stops it (Ctrl-C). While another turn runs it
   * throws `TurnInProgressError`: the front end queues what the user typed meanwhile.
   */
  prompt(
    input: string | Block[],
    signal: AbortSignal,
    opts?: PromptOptions,
  ): Promise<PromptOutcome>;
  /** Sends `text` into the running turn's next request; false when none came (see steer.ts). */
  steer?(text: string): Promise<boolean>;
  /** What can change during the session, as it is now. */
  readonly settings: SessionSettings;
  /**
   * Changes any part of `settings` from the next request or tool call on, checked together (the
   * harness must speak the wire in use, a sandbox mode must be available here), and records it
   * in the session file. Resolves to the settings then in use.
   */
  configure(update: SettingsUpdate, opts?: ConfigureOptions): Promise<SessionSettings>;
  /** Presents another harness from the next request on, keeping the history. */
  switchHarness(id: string): Promise<void>;
  /** Talks to another model ("NAME" or "PROVIDER/NAME", with an effort) from the next request. */
  switchModel(spec: string, effort?: ReasoningEffort): Promise<void>;
  /** The providers one can switch to, each with a model to use and the models it has. */
  models(): Promise<ProviderChoice[]>;
  status(): SessionStatus;
  /** Every harness, with the automatic choice for this model and the one in use marked. */
  harnesses(): Promise<Array<{ id: string; label: string; automatic: boolean; current: boolean }>>;
  /** Background jobs of this session. */
  jobs(): JobInfo[];
  /**
   * The session's timers (wake-ups, cron jobs), soonest first; with "due", those due now are
   * taken out (one-shot ones removed, recurring ones moved to their next time) and returned.
   */
  timers?(take?: "due"): Promise<Timer[]>;
  /** Sets the session's goal as the user gives it (`/goal`), in place of any; none clears it. */
  setGoal?(objective: string | undefined): Promise<void>;
  stopJob(id: string): Promise<JobInfo & { wasRunning: boolean }>;
  /** The working tree against HEAD, untracked files included, as a plain unified diff. */
  diff(): Promise<string>;
  /** The turns one can go back to, oldest first, with the files each changed (`/rewind`). */
  checkpoints(): Promise<CheckpointList>;
  /**
   * Undoes the last turn: restores the files it changed and takes it out of the conversation.
   * `confirm` is asked before files changed since the agent left them are overwritten.
   */
  undo(confirm: ConfirmOverwrite, stop?: StopRunning): Promise<RewindResult>;
  /**
   * Goes back to before turn `turn` of `checkpoints()`: its files, the conversation, or both.
   * Files are restored only once no background job or terminal of the session runs: `stop` is
   * asked to stop them, and without it the restore is refused, naming them.
   */
  rewind(
    turn: number,
    what: RewindChoice,
    confirm: ConfirmOverwrite,
    stop?: StopRunning,
  ): Promise<RewindResult>;
  /** Copies the session as saved so far (up to the end of user turn `turn`) into a new one. */
  fork(turn?: number): Promise<ForkedSession>;
  /** Runs one git command of the agent's own at the repository root (safe git; `/review`). */
  git: RepoGit;
  /** The Agent Skills found for this session, sorted by name, with where each comes from. */
  skills(): Promise<SkillListing[]>;
  /** Summarizes the history now (`/compact`). */
  compact(signal: AbortSignal): Promise<void>;
  /**
   * Plan mode (`/plan`): while on, turns run read-only (tools that change files are refused,
   * commands run in a read-only sandbox) and the model is asked for a plan.
   */
  readonly planMode: boolean;
  /** Turns plan mode on or off, from the next tool call on; off brings the permissions back. */
  setPlanMode(on: boolean): void;
  /** The plan the last turn proposed in plan mode, for the user to approve; else undefined. */
  proposedPlan(): ProposedPlan | undefined;
  /**
   * The conversation so far without the harness's context: the prompts, answers, tool calls and
   * results a person would recognise (a resumed session's recap, an editor's replay).
   */
  history(): Message[];
  /** `history()` with each tool call read by capability id, as an editor replays it. */
  replayHistory(): ReplayedHistory;
  /** The session's MCP servers: their states (`/mcp`), resources and prompts. */
  readonly mcp: McpHub;
  /** The user's hooks: each with its event, matcher, source and trust (`/hooks`). */
  readonly hooks: HookHub;
  /** What `interpreter debug config` prints. */
  debugConfig(): Promise<string>;
}
