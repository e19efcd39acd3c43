/**
 * `exec --json`: turns the session's events into the JSONL events Codex SDK apps parse. Items
 * are chosen by capability (through the typed tool views), never by a harness's tool name.
 */
import type { Block, Usage } from "../../model/message.ts";
import type { SessionEvent } from "../../session/open.ts";
import { ToolCallViews, type ToolView } from "../../session/tool_views/tool_view.ts";
import type {
  CommandExecutionItem,
  McpToolCallItem,
  ThreadEvent,
  ThreadItem,
  ThreadUsage,
} from "./exec_json_types.ts";

type ToolEvent = Extract<SessionEvent, { type: "tool_start" | "tool_end" }>;
type TodoItem = Extract<ThreadItem, { type: "todo_list" }>;
type WebSearchItem = Extract<ThreadItem, { type: "web_search" }>;

/** Keystrokes typed into the session's terminal (text-protocol harnesses) read as commands. */
const TERMINAL_KEYS = "terminal.keys";

/** The JSONL event stream of one `exec` process; item ids `item_0`, `item_1`, … are its own. */
export class ExecJsonStream {
  readonly #write: (event: ThreadEvent) => void;
  readonly #views = new ToolCallViews();
  #nextId = 0;
  #started = false;
  /** Warnings that came before `thread.started`; they follow it as `error` items. */
  #early: string[] = [];
  /** Items started by a call that has not ended, by call id. */
  #open = new Map<string, CommandExecutionItem | WebSearchItem | McpToolCallItem>();
  /** Commands running as background jobs, by job id. */
  #jobs = new Map<string, CommandExecutionItem>();
  #todo: TodoItem | undefined;

  constructor(write: (event: ThreadEvent) => void) {
    this.#write = write;
  }

  /** The first line: the session id, then the warnings start-up gave. */
  threadStarted(threadId: string): void {
    this.#write({ type: "thread.started", thread_id: threadId });
    this.#started = true;
    for (const message of this.#early.splice(0)) this.#warning(message);
  }

  turnStarted(): void {
    this.#write({ type: "turn.started" });
  }

  /** Maps one session event; events with no JSON counterpart are dropped. */
  onEvent(event: SessionEvent): void {
    switch (event.type) {
      case "session_started":
      case "tool_denied":
        this.#views.see(event);
        return;
      case "warning":
        if (this.#started) this.#warning(event.message);
        else this.#early.push(event.message);
        return;
      case "retry":
        this.#write({
          type: "error",
          message: `Reconnecting... ${event.attempt}/${event.maxRetries} (${event.reason})`,
        });
        return;
      case "assistant_message":
        return this.#assistant(event.message.blocks);
      case "tool_start":
      case "tool_end":
        return this.#tool(event);
    }
  }

  /** The answer (the JSON text when an output schema is set). */
  agentMessage(text: string): void {
    this.#completed({ id: this.#id(), type: "agent_message", text });
  }

  /** Ends the turn; `usage` is the thread's total. */
  turnCompleted(usage: Usage): void {
    this.#finishItems();
    this.#write({ type: "turn.completed", usage: threadUsage(usage) });
  }

  /**
   * Ends the turn as failed; a provider's failure is also a top-level `error`. `reason` names
   * the limit that stopped it (`max_turns`, `max_budget_usd`).
   */
  turnFailed(message: string, opts: { providerError: boolean; reason?: string }): void {
    this.#finishItems();
    if (opts.providerError) this.#write({ type: "error", message });
    const reason = opts.reason === undefined ? {} : { reason: opts.reason };
    this.#write({ type: "turn.failed", error: { message, ...reason } });
  }

  #id(): string {
    return `item_${this.#nextId++}`;
  }

  #completed(item: ThreadItem): void {
    this.#write({ type: "item.completed", item: structuredClone(item) });
  }

  #emit(type: "item.started" | "item.updated", item: ThreadItem): void {
    this.#write({ type, item: structuredClone(item) });
  }

  #warning(message: string): void {
    this.#completed({ id: this.#id(), type: "error", message });
  }

  #assistant(blocks: Block[]): void {
    for (const block of blocks) {
      if (block.type === "thinking" && block.text.trim()) {
        this.#completed({ id: this.#id(), type: "reasoning", text: block.text.trim() });
      }
    }
    // Text beside tool calls is commentary; the final answer comes from `agentMessage`.
    if (!blocks.some((b) => b.type === "tool_call")) return;
    const text = blocks.filter((b) => b.type === "text").map((b) => b.text).join("").trim();
    if (text) this.agentMessage(text);
  }

  #tool(event: ToolEvent): void {
    const view = this.#views.see(event);
    if (!view) return;
    if (event.capability === TERMINAL_KEYS) return this.#keystrokes(event, view);
    if (event.type === "tool_start") return this.#toolStarted(view);
    switch (view.kind) {
      case "command":
        return this.#commandEnded(view);
      case "file_change":
        return this.#completed({
          id: this.#id(),
          type: "file_change",
          changes: view.changes.map((c) => ({ path: c.path, kind: c.kind })),
          status: view.status === "done" ? "completed" : "failed",
        });
      case "plan":
        if (view.status === "done") this.#plan(view.items);
        return;
      case "fetch": {
        const open = this.#open.get(view.callId);
        this.#open.delete(view.callId);
        if (open) this.#completed(open);
        return;
      }
      case "mcp":
        return this.#mcpEnded(view);
    }
  }

  /** Codex's `mcp_tool_call`: the server's answer when it gave one, else the error. */
  #mcpEnded(view: ToolView & { kind: "mcp" }): void {
    const open = this.#open.get(view.callId);
    this.#open.delete(view.callId);
    const item = open?.type === "mcp_tool_call" ? open : this.#mcpItem(view);
    if (view.status === "done") {
      item.result = view.result ?? { content: [], structured_content: null };
      item.status = "completed";
    } else {
      item.error = { message: view.error ?? "" };
      item.status = "failed";
    }
    this.#completed(item);
  }

  #mcpItem(view: ToolView & { kind: "mcp" }): McpToolCallItem {
    return {
      id: this.#id(),
      type: "mcp_tool_call",
      server: view.server,
      tool: view.tool,
      arguments: view.arguments,
      result: null,
      error: null,
      status: "in_progress",
    };
  }

  #toolStarted(view: ToolView): void {
    if (view.kind === "command" && (!view.job || view.job.action === "start")) {
      this.#startCommand(view.callId, view.command);
    } else if (view.kind === "fetch") {
      const item: WebSearchItem = {
        id: this.#id(),
        type: "web_search",
        query: view.query ?? view.url,
        action: view.query !== undefined
          ? { type: "search", query: view.query }
          : { type: "open_page", url: view.url },
      };
      this.#open.set(view.callId, item);
      this.#emit("item.started", item);
    } else if (view.kind === "mcp") {
      const item = this.#mcpItem(view);
      this.#open.set(view.callId, item);
      this.#emit("item.started", item);
    }
  }

  #startCommand(callId: string, command: string): void {
    const item: CommandExecutionItem = {
      id: this.#id(),
      type: "command_execution",
      command,
      aggregated_output: "",
      status: "in_progress",
    };
    this.#open.set(callId, item);
    this.#emit("item.started", item);
  }

  /** The call's open command item, or a new one when its start was not seen. */
  #commandOf(view: ToolView & { kind: "command" }): CommandExecutionItem {
    const open = this.#open.get(view.callId);
    this.#open.delete(view.callId);
    if (open?.type === "command_execution") return open;
    return {
      id: this.#id(),
      type: "command_execution",
      command: view.command,
      aggregated_output: "",
      status: "in_progress",
    };
  }

  #commandEnded(view: ToolView & { kind: "command" }): void {
    const action = view.job?.action;
    if (!action) return this.#finishCommand(this.#commandOf(view), view);
    const id = view.job?.id;
    if (action === "start") {
      const item = this.#commandOf(view);
      if (view.status === "done" && id) this.#jobs.set(id, item);
      else this.#finishCommand(item, view);
      return;
    }
    const item = id === undefined ? undefined : this.#jobs.get(id);
    if (!item || view.status !== "done") return;
    if (action === "output" && view.job?.running) {
      item.aggregated_output = view.output ?? item.aggregated_output;
      return this.#emit("item.updated", item);
    }
    this.#jobs.delete(id!);
    this.#finishCommand(item, { ...view, output: view.output ?? item.aggregated_output });
  }

  #finishCommand(item: CommandExecutionItem, view: ToolView & { kind: "command" }): void {
    if (view.status === "done") {
      item.aggregated_output = view.output ?? "";
      if (typeof view.exitCode === "number") item.exit_code = view.exitCode;
      item.status = view.exitCode === 0 ? "completed" : "failed";
    } else {
      item.aggregated_output = view.error ?? "";
      item.status = view.status === "declined" ? "declined" : "failed";
    }
    this.#completed(item);
  }

  /** `terminal.keys`: the keystrokes are the command, what the screen showed its output. */
  #keystrokes(event: ToolEvent, view: ToolView): void {
    const fields = (value: unknown) => (value ?? {}) as Record<string, unknown>;
    if (event.type === "tool_start") {
      return this.#startCommand(view.callId, String(fields(event.input).keystrokes ?? ""));
    }
    const item = this.#open.get(view.callId);
    this.#open.delete(view.callId);
    if (item?.type !== "command_execution") return;
    item.aggregated_output = view.status === "done"
      ? String(fields(event.output).output ?? "")
      : view.error ?? "";
    item.status = view.status === "done"
      ? "completed"
      : view.status === "declined"
      ? "declined"
      : "failed";
    this.#completed(item);
  }

  #plan(items: Array<{ text: string; status: string }>): void {
    const list = items.map((i) => ({ text: i.text, completed: i.status === "completed" }));
    if (this.#todo) {
      this.#todo.items = list;
      return this.#emit("item.updated", this.#todo);
    }
    this.#todo = { id: this.#id(), type: "todo_list", items: list };
    this.#emit("item.started", this.#todo);
  }

  /** At the end of a turn the to-do list completes, and so do jobs still running (exec stops them). */
  #finishItems(): void {
    if (this.#todo) this.#completed(this.#todo);
    this.#todo = undefined;
    for (const item of this.#jobs.values()) {
      item.status = "failed";
      this.#completed(item);
    }
    this.#jobs.clear();
  }
}

/** The SDK's usage record; cache writes are not reported by our providers. */
function threadUsage(usage: Usage): ThreadUsage {
  return {
    input_tokens: usage.inputTokens,
    cached_input_tokens: usage.cachedInputTokens,
    cache_write_input_tokens: 0,
    output_tokens: usage.outputTokens,
    reasoning_output_tokens: usage.reasoningTokens,
  };
}

const encoder = new TextEncoder();

/** Writes one event as a line on stdout; a reader that went away (an aborted SDK run) is ignored. */
export function writeJsonLine(event: ThreadEvent): void {
  const bytes = encoder.encode(`${JSON.stringify(event)}\n`);
  try {
    for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}
