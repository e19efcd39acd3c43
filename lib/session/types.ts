/**
 * The session's public types: what a front end gives `openSession()`, what it gets back, and
 * the events it is told. (lib/session/open.ts opens sessions and re-exports these.)
 */
import type { ApprovalAnswer, ApprovalQuestion, ApprovalReply } from "../approval/hook.ts";
import type { ConfigValues, REASONING_EFFORTS } from "../config/schema.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import type { Block, Usage } from "../model/message.ts";
import type { SessionOrigin } from "../store/mod.ts";
import type { AskUser } from "../tools/ask_user.ts";
import type { JobInfo } from "../tools/shell_jobs.ts";
import type { AgentSession, SessionSettings } from "./agent_session.ts";
import type { RepoGit } from "../workspace/repo_git.ts";
import type { ProviderChoice } from "./choices.ts";

/** A `model_reasoning_effort` value. */
export type ReasoningEffort = typeof REASONING_EFFORTS[number];

/** What the banner and `/status` show. */
export interface SessionInfo {
  cwd: string;
  model: string;
  provider: string;
  wireApi: string;
  harness: string;
  /** `sandbox: …` and `approval: …` lines. */
  sandbox: string;
  /** The one-line note when the model's context window is a guess. */
  contextNote?: string;
}

/** Everything a session reports, in order. Loop events pass through unchanged. */
export type SessionEvent =
  | { type: "session_started"; info: SessionInfo }
  | { type: "warning"; message: string }
  | { type: "approval_requested"; callId?: string; question: ApprovalQuestion }
  | { type: "approval_resolved"; callId?: string; answer: ApprovalAnswer; note?: string }
  | { type: "tool_denied"; callId?: string; reason: string }
  | { type: "subagent"; parentCallId?: string; label: string; event: LoopEvent }
  | { type: "harness_switched"; harness: string }
  | { type: "model_switched"; model: string; provider: string; contextNote?: string }
  | { type: "compacted"; tokensBefore: number; tokensAfter: number }
  | LoopEvent;

/** What `/status` shows. */
export interface SessionStatus extends SessionInfo {
  sandboxMode: string;
  approval: string;
  network: boolean;
  sessionId?: string;
  sessionFile?: string;
  contextUsed: number;
  contextWindow: number;
  /** Tool calls recovered from reply text; undefined while `tool_call_repair = false`. */
  toolCallRepairs?: number;
  tokens: { input: number; output: number };
  reasoningEffort?: string;
}

/** What the front end supplies. */
export interface SessionIO {
  onEvent(event: SessionEvent): void;
  /** Asks the user to approve a tool call; absent when no one can answer. */
  approve?: (question: ApprovalQuestion) => Promise<ApprovalReply>;
  /** Puts the model's questions to the user; absent when no one can answer. */
  askUser?: AskUser;
}

/** Options of `openSession()`. */
export interface SessionOptions {
  cwd: string;
  env: Record<string, string>;
  settings: SessionSettings;
  io: SessionIO;
  /** Recorded in the session file's header; default "exec". */
  origin?: SessionOrigin;
  /** A saved session to continue (id, id prefix or file); its history is restored. */
  resume?: string;
  /** Save nothing. */
  ephemeral?: boolean;
  /** Builds a system prompt in place of the harness's (a review's reviewer prompt). */
  instructions?: (agent: AgentSession) => string;
}

/** Options of one prompt: the JSON Schema its final answer must match (`--output-schema`). */
export type PromptOptions = Pick<LoopState, "outputSchema">;

/** A running session. Dispose it to stop its jobs, helpers and sandbox. */
export interface Session extends AsyncDisposable {
  readonly info: SessionInfo;
  /** The merged config values (`hide_agent_reasoning`, `history.persistence`, …). */
  readonly config: ConfigValues;
  /** The interpreter home (`~/.openinterpreter`). */
  readonly home: string;
  /** Tokens used so far, over every prompt. */
  readonly usage: Usage;
  /** Runs one user turn to its end; `signal` stops it (Ctrl-C). */
  prompt(input: string | Block[], signal: AbortSignal, opts?: PromptOptions): Promise<TurnOutcome>;
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
  stopJob(id: string): Promise<JobInfo & { wasRunning: boolean }>;
  /** The working tree against HEAD, untracked files included, as a plain unified diff. */
  diff(): Promise<string>;
  /** Runs one git command of the agent's own at the repository root (safe git; `/review`). */
  git: RepoGit;
  skills(): Promise<Array<{ name: string; description: string; path: string }>>;
  /** Summarizes the history now (`/compact`). */
  compact(signal: AbortSignal): Promise<void>;
  /** What `interpreter debug config` prints. */
  debugConfig(): string;
}
