/**
 * The JSONL events of `exec --json`, as `@openai/codex-sdk` 0.163.0 types them (its `ThreadEvent`
 * and `ThreadItem`), plus what the Open Interpreter fork adds: a `declined` command status and
 * the `action` of a web search.
 */

/** Token counts of the whole thread so far (every model request, earlier turns included). */
export interface ThreadUsage {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
}

/** What a web search item did; a page fetch is `open_page`. */
export type WebSearchAction =
  | { type: "search"; query: string }
  | { type: "open_page"; url: string }
  | { type: "other" };

/** A command the agent ran; `exit_code` is left out while it runs or when it has none. */
export interface CommandExecutionItem {
  id: string;
  type: "command_execution";
  command: string;
  aggregated_output: string;
  exit_code?: number;
  status: "in_progress" | "completed" | "failed" | "declined";
}

/** One file a change touched, by absolute path. */
export interface FileUpdateChange {
  path: string;
  kind: "add" | "delete" | "update";
}

/** A call of an MCP server's tool; `result` and `error` are null until it ends. */
export interface McpToolCallItem {
  id: string;
  type: "mcp_tool_call";
  server: string;
  tool: string;
  arguments: unknown;
  result: { content: unknown[]; structured_content: unknown; _meta?: unknown } | null;
  error: { message: string } | null;
  status: "in_progress" | "completed" | "failed";
}

/** Every kind of item the stream carries. */
export type ThreadItem =
  | { id: string; type: "agent_message"; text: string }
  | { id: string; type: "reasoning"; text: string }
  | CommandExecutionItem
  | {
    id: string;
    type: "file_change";
    changes: FileUpdateChange[];
    status: "completed" | "failed";
  }
  | { id: string; type: "web_search"; query: string; action: WebSearchAction }
  | McpToolCallItem
  | { id: string; type: "todo_list"; items: Array<{ text: string; completed: boolean }> }
  | { id: string; type: "error"; message: string };

/** One line of `exec --json` output. */
export type ThreadEvent =
  | { type: "thread.started"; thread_id: string }
  | { type: "turn.started" }
  | { type: "item.started" | "item.updated" | "item.completed"; item: ThreadItem }
  | { type: "turn.completed"; usage: ThreadUsage }
  /** `reason`: the limit that stopped the turn (`max_turns`, `max_budget_usd`); ours, not Codex's. */
  | { type: "turn.failed"; error: { message: string; reason?: string } }
  | { type: "error"; message: string };
