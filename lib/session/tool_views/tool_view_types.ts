/**
 * The views of tool calls that front ends render (`tool_view.ts` builds them), in a leaf file
 * so the builders of each kind can share them without importing `tool_view.ts`.
 */
import type { LoopEvent } from "../../loop/events.ts";

/** The loop's `tool_start` event. */
export type ToolStartEvent = Extract<LoopEvent, { type: "tool_start" }>;
/** The loop's `tool_end` event; `input` where the emitter repeats it. */
export type ToolEndEvent = Extract<LoopEvent, { type: "tool_end" }> & { input?: unknown };

/** Where a call is: started, finished, failed with an error result, or refused before it ran. */
export type ToolStatus = "running" | "done" | "failed" | "declined";

/** What every view carries. */
export interface ToolViewBase {
  callId: string;
  /** The harness's tool name: a label, never a key. */
  name: string;
  capability?: string;
  status: ToolStatus;
  /** The error text the model got, when failed or declined. */
  error?: string;
  /** The user interrupted it (a failed call whose `error` is the harness's interruption text). */
  interrupted?: true;
}

/** A foreground command (`shell.run`), or a background job's start, output or stop. */
export interface CommandView {
  kind: "command";
  command: string;
  cwd?: string;
  /** Null when the command was killed before it exited. */
  exitCode?: number | null;
  durationMs?: number;
  /** Combined stdout and stderr. */
  output?: string;
  timedOut?: boolean;
  job?: { id?: string; action: "start" | "output" | "stop"; running?: boolean };
}

/** One changed file. */
export interface FileChangeView {
  /** Absolute when the tool or the session's working directory says where the file is. */
  path: string;
  /** The path as the tool reported it (relative to the workspace when inside it). */
  displayPath: string;
  kind: "add" | "delete" | "update";
  movedTo?: string;
  /** Unified diff; "" when the capability does not report one. */
  diff: string;
  /** What changed, where a diff cannot say it (a notebook cell). */
  summary?: string;
}

/** Files written, edited, patched or removed. */
export interface FileChangesView {
  kind: "file_change";
  changes: FileChangeView[];
}

/** A file read, with the window of lines. */
export interface FileReadView {
  kind: "file_read";
  path: string;
  displayPath: string;
  startLine?: number;
  endLine?: number;
  totalLines?: number;
}

/** A grep, glob or folder listing. */
export interface SearchView {
  kind: "search";
  search: "grep" | "glob" | "list";
  /** The pattern searched for; the folder for a listing. */
  pattern: string;
  path?: string;
  /** Files matched (grep, glob) or entries listed. */
  count?: number;
  truncated?: boolean;
}

/** One plan step or todo item. */
export interface PlanItem {
  text: string;
  status: "pending" | "in_progress" | "completed" | "cancelled";
}

/** The plan or todo list as it stands after the call. */
export interface PlanView {
  kind: "plan";
  items: PlanItem[];
  explanation?: string;
}

/** A web page fetched, or a web search (`query` set, `url` empty). */
export interface FetchView {
  kind: "fetch";
  url: string;
  query?: string;
  finalUrl?: string;
  /** The HTTP status of the response. */
  httpStatus?: number;
  bytes?: number;
}

/** A sub-agent run. */
export interface SubagentView {
  kind: "subagent";
  description?: string;
  prompt: string;
  agentType?: string;
  finalText?: string;
  toolCalls?: number;
  /** The sub-agent turn's outcome status. */
  outcome?: string;
}

/** Questions put to the user, and the answers. */
export interface QuestionView {
  kind: "question";
  questions: Array<{ question: string; header?: string; answers?: string[] }>;
  answered?: boolean;
}

/** What an MCP server answered a `tools/call` with, in Codex's `mcp_tool_call` spelling. */
export interface McpCallResult {
  content: unknown[];
  structured_content: unknown;
  _meta?: unknown;
}

/** A call of an MCP server's tool: the server, the tool, the arguments and what it answered. */
export interface McpView {
  kind: "mcp";
  server: string;
  tool: string;
  arguments: unknown;
  /** The server's answer, when the call succeeded. */
  result?: McpCallResult;
  /** The answer as the model read it. */
  text?: string;
}

/** Any other capability: its most telling argument and the result text the model got. */
export interface GenericView {
  kind: "generic";
  subject?: string;
  text: string;
}

/** The kind-specific part of a view. */
export type ToolViewBody =
  | CommandView
  | FileChangesView
  | FileReadView
  | SearchView
  | PlanView
  | FetchView
  | SubagentView
  | QuestionView
  | McpView
  | GenericView;

/** A tool call as every front end shows it. */
export type ToolView = ToolViewBase & ToolViewBody;

/** What `toolView` knows beyond the event. */
export interface ToolViewOptions {
  /** The call's `tool_start`, which carries the input a `tool_end` may not repeat. */
  start?: ToolStartEvent;
  /** The session refused the call (its `tool_denied` event named this call). */
  denied?: boolean;
  /** The session's working directory, to make workspace-relative paths absolute. */
  cwd?: string;
}
