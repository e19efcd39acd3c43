/**
 * The types capabilities share with whoever runs them: the tool context and the seams it holds.
 * A leaf of lib/tools (it imports only types, and nothing here imports it back), so that the
 * capabilities, the context and the loop can share them without an import cycle.
 */
import type { ImageResult } from "./image_types.ts";
import type { CommandSandbox } from "../../sandbox/command_sandbox.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import type { ScratchSpace } from "../../sandbox/scratch_space.ts";
import type { McpHub } from "./mcp_hub.ts";
import type { Resources } from "./resources.ts";
import type { WebFetchNet } from "./_fetch_guard.ts";
import type { WebSearchBackend } from "./_search_backends.ts";

/** Output a running call reports before it ends (`ToolContext.progress`). */
export interface ToolProgress {
  /** A command's stdout or stderr, or a line about what the tool is doing. */
  stream: "stdout" | "stderr" | "status";
  text: string;
}

/**
 * What a capability may use: the seams tests replace with real temp dirs and processes. The loop
 * gives every call its own context, with `callId` and `progress` set for that call.
 */
export interface ToolContext extends TurnContext {
  /** The id of the tool call being run. */
  callId: string;
  /** The tool's name as the model called it (for an approval question); absent in some tests. */
  toolName?: string;
  /**
   * Reports output as it comes (a command's output, a sub-agent's steps). Cheap to call often:
   * the loop throttles and caps what it passes on. Ignored once the call has ended.
   */
  progress(chunk: ToolProgress): void;
}

/** The context of a whole turn, before the loop makes it one call's `ToolContext`. */
export interface TurnContext {
  /** Absolute working directory; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** Environment for spawned commands. */
  env: Record<string, string>;
  /**
   * Session data shared between calls (todos, loaded deferred tools, read-before-edit records,
   * undo history): JSON values only, saved with `snapshotState` and brought back on resume with
   * `restoreState` (`session_state.ts`, where every key is declared).
   */
  state: Map<string, unknown>;
  /**
   * What tools leave running (background jobs, the terminal, environment probes), ended as a
   * whole by disposing it and never saved. Optional while callers move over: without it,
   * `resourcesOf(ctx)` keeps them in `state` as before, and `disposeState` ends them there.
   */
  resources?: Resources;
  /** The deferred tools, for `tools.search` and `tools.call`; the loop sets it for each turn. */
  toolCatalog?: ToolCatalog;
  /** The session's tokens so far (input and output), for a goal's budget; absent in some tests. */
  tokensUsed?: () => number;
  /** False when the session's model takes no images: image files read as a one-line note. */
  takesImages?: boolean;
  /** Whether the sandbox policy allows network access; absent means it does not. */
  networkAllowed?: boolean;
  /** Hosts web fetch may reach on this machine or private networks (`web_fetch.allowed_hosts`). */
  webFetch?: WebFetchNet;
  /** Where web search sends queries (`[web_search_backend]`); absent when none is configured. */
  webSearch?: WebSearchBackend;
  /** The session's artifact folder (`artifact.record`); absent where there is none. */
  artifacts?: ArtifactStore;
  /** The interpreter home (`OPENINTERPRETER_HOME`, default `~/.openinterpreter`). */
  home?: string;
  /** The session's MCP servers, for the resource tools; absent means none. */
  mcp?: McpHub;
  /** True for project files held back because they changed while an earlier session ran. */
  isHeldBack?: (path: string) => boolean;
  /**
   * The Agent Skills the session offers (`skill.list`, `skill.load`): the workspace's discovery,
   * looked up on each call. Absent means no skills.
   */
  skills?: () => Promise<SkillInfo[]>;
  /**
   * Runs a nested agent turn (a sub-agent) and returns its final text; `progress` receives a
   * line per step it takes. Absent where sub-agents are unavailable, including inside a
   * sub-agent, which bounds nesting to one level.
   */
  runSubagent?: (
    req: {
      prompt: string;
      description?: string;
      agentType?: string;
      /** The id of the call that starts the sub-agent: its events are tied to that call. */
      callId?: string;
      progress?: (chunk: ToolProgress) => void;
    },
  ) => Promise<{ finalText: string; toolCalls: number; status: string }>;
  /**
   * The session's persistent sub-agents (spawn, send, wait, close, resume, list); absent where
   * sub-agents are unavailable, including inside a sub-agent.
   */
  agents?: AgentPool;
  /**
   * Code mode: runs one of the harness's nested tools for `exec` source, through the same hooks
   * and approvals as a direct call (lib/loop/nested_tools.ts); absent outside code mode.
   */
  nestedTools?: NestedTools;
  /** Wraps spawned commands in the session's OS sandbox; absent means spawn directly. */
  sandbox?: CommandSandbox;
  /**
   * The session's file system (the sandboxed helper, or this process in danger-full-access):
   * every read, write, listing and removal a capability makes goes through it (`fsOf(ctx)`).
   * A file tool on a context without it (from untyped code) throws; it never falls back.
   */
  fs: FileSystem;
  /**
   * The agent's own files (job output, terminal configuration), outside the workspace
   * (`scratchOf(ctx)`). Optional like `fs`: a tool that needs it throws without it.
   */
  scratch?: ScratchSpace;
  /** Puts questions to the user (`user.ask`); absent where no one can answer (exec, no TTY). */
  askUser?: AskUser;
  /**
   * The session's plan mode (`plan.enter`, `plan.exit`); absent where no one can approve a plan
   * (exec), so that the model carries on without one.
   */
  planMode?: PlanModeControl;
  /** The session's git worktree (`worktree.enter`, `worktree.exit`); absent where none can be. */
  worktrees?: WorktreeControl;
}

/** The tools code-mode source may call, by wire name (`TurnContext.nestedTools`). */
export interface NestedTools {
  names(): string[];
  /** Runs one call; `value` is what the source gets (an object or text), or the error text. */
  call(
    name: string,
    args: unknown,
    meta: { callId: string; signal: AbortSignal },
  ): Promise<{ value: unknown; isError: boolean }>;
}

/** A worktree the session works in (`WorktreeControl`). */
export interface WorktreeInfo {
  name: string;
  path: string;
  branch: string;
}

/**
 * Moves the session into a git worktree and back (lib/session/worktree_control.ts): its working
 * directory and writable roots follow through `configure()`.
 */
export interface WorktreeControl {
  /** Creates worktree `name` (or a named one), or enters the existing one at `path`. */
  enter(req: { name?: string; path?: string }): Promise<WorktreeInfo & { created: boolean }>;
  /**
   * Goes back to the first working directory; `remove` deletes the worktree and its branch,
   * refused while it has changes unless `discardChanges`.
   */
  exit(req: { name?: string; action: "keep" | "remove"; discardChanges?: boolean }): Promise<
    WorktreeInfo & { originalCwd: string; discardedFiles: number; discardedCommits: number }
  >;
}

/** What plan-mode tools can do to the session's plan mode. */
export interface PlanModeControl {
  /** Whether plan mode is on. */
  readonly on: boolean;
  /** Turns plan mode on from the next call; returns the instruction the model now works under. */
  enter(): Promise<string>;
  /** Puts a plan before the user at the end of the turn; without text, the turn's answer is it. */
  propose(plan: string | undefined): void;
}

/** Where a skill was found; earlier scopes win a name clash. */
export type SkillScope = "repo" | "user" | "system";

/** A discovered Agent Skill: its front matter and where it lives. */
export interface SkillInfo {
  name: string;
  description: string;
  /** Absolute path of the skill's SKILL.md. */
  path: string;
  /** Absolute path of the skill folder; relative paths in the body resolve against it. */
  dir: string;
  scope: SkillScope;
}

/** A deferred tool as a search shows it: wire name, description and JSON schema. */
export interface CatalogEntry {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * The turn's deferred tools, as `ToolContext.toolCatalog`. The loop builds it
 * (`lib/harness/deferred.ts`), so capabilities reach harness tools without importing the
 * harness. `load` and `call` take wire names; `call` returns the tool's rendered result text and
 * throws ToolError for anything the model can correct.
 */
export interface ToolCatalog {
  /** Every deferred tool, loaded or not, in harness order. */
  list(): CatalogEntry[];
  /** Sends the named tools with every later request; returns the names the harness has. */
  load(names: string[]): string[];
  /** Runs tool `name` with wire arguments `args`: its result text, or its picture as it is. */
  call(name: string, args: unknown, ctx: ToolContext): Promise<string | ImageResult>;
}

/** A question as the UI receives it, spellings normalised. */
export interface UserQuestion {
  id: string;
  question: string;
  header: string;
  options: Array<{ label: string; description: string; preview?: string }>;
  multiSelect: boolean;
}

/** The user's answer to one question: picked option labels and/or typed text. */
export interface UserAnswer {
  /** The id of the UserQuestion answered. */
  id: string;
  answers: string[];
}

/** One answer per question, or null when the user dismissed the questions. */
export type UserAnswers = UserAnswer[] | null;

/**
 * The UI seam behind `user.ask` (ToolContext.askUser): shows the questions of call `callId` and
 * resolves with the answers. `signal` fires when the turn is cancelled: the front end then
 * withdraws the questions; its answer no longer counts. Absent where no one can answer.
 */
export type AskUser = (
  questions: UserQuestion[],
  meta: { callId: string },
  signal: AbortSignal,
) => Promise<UserAnswers>;

/** What the model sees of one persistent sub-agent. */
export interface AgentInfo {
  id: string;
  /** The name or description it was given (the id when none). */
  name: string;
  agentType: string;
  /** `running`, `completed` (idle, waiting for input), `failed`, `interrupted` or `closed`. */
  status: string;
  /** Its last final answer, or why it failed; empty while it has none. */
  lastText: string;
  /** Messages waiting for its current step to end. */
  pending: number;
}

/** The session's persistent sub-agents (`lib/session/agent_pool.ts`). */
export interface AgentPool {
  /** Starts a sub-agent on `prompt` in the background; `callId` tags its events. */
  spawn(req: {
    prompt: string;
    name?: string;
    agentType?: string;
    callId?: string;
  }): Promise<AgentInfo>;
  /** Queues a message; `interrupt` ends its current step first. Refuses a closed agent. */
  send(target: string, message: string, opts?: { interrupt?: boolean }): Promise<AgentInfo>;
  /** Ends its current step without closing it. */
  interrupt(target: string): Promise<AgentInfo>;
  /**
   * Waits until one of `targets` (every open agent when empty) is not running, or `timeoutMs`
   * passes; returns those agents and whether the wait timed out.
   */
  wait(
    targets: string[],
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ timedOut: boolean; agents: AgentInfo[] }>;
  /** Ends its step and closes it; returns what it was before. */
  close(target: string): Promise<AgentInfo>;
  /** Opens a closed agent again, its conversation kept. */
  resume(target: string): Promise<AgentInfo>;
  list(): Promise<AgentInfo[]>;
}

/** One recorded artifact, as the store keeps it (`<folder>/artifacts.jsonl`). */
export interface ArtifactEntry {
  title: string;
  kind: string;
  description?: string;
  /** The saved copy, absolute, for a file. */
  path?: string;
  /** The workspace file it was copied from. */
  source?: string;
  url?: string;
  mimeType?: string;
  bytes?: number;
  metadata?: Record<string, string | number | boolean | null>;
  recordedAt: string;
}

/** Result of `artifact.record`. */
export interface RecordArtifactOutput extends ArtifactEntry {
  /** The session's artifact folder. */
  folder: string;
  /** One sentence for the model: what was saved where. */
  output: string;
}

/**
 * The session's artifact folder (`ToolContext.artifacts`, lib/session/artifact_store.ts): files
 * and links the model recorded for the user, listed at the end of `exec`.
 */
export interface ArtifactStore {
  /** Absolute path of the folder. */
  readonly folder: string;
  /** Copies `file` into the folder under a free name; returns the entry as recorded. */
  saveFile(
    entry: Omit<ArtifactEntry, "path" | "source">,
    file: { source: string; bytes: Uint8Array },
  ): Promise<ArtifactEntry>;
  /** Records a link. */
  saveLink(entry: ArtifactEntry): Promise<ArtifactEntry>;
}
