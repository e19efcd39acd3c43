/**
 * The session's events as the `msg` of Codex's `codex/event` notifications: the event types and
 * field names Codex uses (`exec_command_begin` with `call_id`, `command` argv and `cwd`, …).
 * Items are chosen by capability (through the typed tool views), never by a tool's name.
 */
import { Buffer } from "node:buffer";
import { resolve } from "node:path";
import { type Block, emptyUsage, type Usage } from "../../model/message.ts";
import type { SessionEvent, SessionInfo, SessionStatus } from "../../session/open.ts";
import {
  type FileChangeView,
  ToolCallViews,
  type ToolStartEvent,
  type ToolView,
  toolView,
} from "../../session/tool_views/tool_view.ts";

/** One `msg` of a `codex/event` notification: its `type` and that event's fields. */
export type CodexMsg = { type: string } & Record<string, unknown>;

type ToolEvent = Extract<SessionEvent, { type: "tool_start" | "tool_end" }>;

/** Maps the events of one session; it pairs each call's end with its start. */
export class CodexEvents {
  readonly #views = new ToolCallViews();
  /** Calls started and not ended, for the approval questions asked about them. */
  readonly #starts = new Map<string, ToolStartEvent>();
  #cwd = "";
  #turnUsage: Usage = emptyUsage();

  /** The messages one session event becomes; none for events Codex has no counterpart of. */
  map(event: SessionEvent): CodexMsg[] {
    switch (event.type) {
      case "session_started":
        this.#cwd = event.info.cwd;
        this.#views.see(event);
        return [];
      case "tool_denied":
        this.#views.see(event);
        return [];
      case "warning":
        return [{ type: "warning", message: event.message }];
      case "retry":
        return [{
          type: "stream_error",
          message: `Reconnecting... ${event.attempt}/${event.maxRetries} (${event.reason})`,
        }];
      case "text_delta":
        return [{ type: "agent_message_delta", delta: event.text }];
      case "thinking_delta":
        return [{ type: "agent_reasoning_delta", delta: event.text }];
      case "assistant_message":
        return assistantMsgs(event.message.blocks);
      case "tool_start":
      case "tool_end":
        return this.#tool(event);
      case "tool_progress":
        return event.stream === "status" ? [] : [{
          type: "exec_command_output_delta",
          call_id: event.callId,
          stream: event.stream,
          chunk: Buffer.from(event.text).toString("base64"),
        }];
      case "subagent":
        if (event.event.type === "tool_start") this.#starts.set(event.event.call.id, event.event);
        if (event.event.type === "tool_end") this.#starts.delete(event.event.call.id);
        return [];
      case "approval_requested":
        return event.callId ? this.#approvalRequest(event.callId, event.question.reason) : [];
      case "compacted":
        return [{ type: "context_compacted" }];
      case "turn_end":
        this.#turnUsage = event.usage;
        return [];
      default:
        return [];
    }
  }

  /** The view of call `callId` while it waits to run (an approval is asked about it). */
  pending(callId: string): ToolView | undefined {
    const start = this.#starts.get(callId);
    return start ? toolView(start, { cwd: this.#cwd }) : undefined;
  }

  /** The input call `callId` was started with. */
  pendingInput(callId: string): unknown {
    return this.#starts.get(callId)?.input;
  }

  /** The tokens the last turn used. */
  get turnUsage(): Usage {
    return this.#turnUsage;
  }

  /** The session's working directory. */
  get cwd(): string {
    return this.#cwd;
  }

  #tool(event: ToolEvent): CodexMsg[] {
    if (event.type === "tool_start") this.#starts.set(event.call.id, event);
    const input = this.#starts.get(event.call.id)?.input;
    if (event.type === "tool_end") this.#starts.delete(event.call.id);
    const view = this.#views.see(event);
    if (!view) return [];
    const call_id = view.callId;
    switch (view.kind) {
      case "command":
        if (view.job && view.job.action !== "start") return [];
        return event.type === "tool_start"
          ? [{ type: "exec_command_begin", ...this.#command(view, input) }]
          : [{ type: "exec_command_end", ...this.#command(view, input), ...commandEnd(view) }];
      case "file_change":
        return event.type === "tool_start"
          ? [{
            type: "patch_apply_begin",
            call_id,
            auto_approved: true,
            changes: changesOf(view.changes, input),
          }]
          : [{
            type: "patch_apply_end",
            call_id,
            stdout: view.status === "done" ? event.text : "",
            stderr: view.error ?? "",
            success: view.status === "done",
          }];
      case "plan":
        if (event.type === "tool_start" || view.status !== "done") return [];
        return [{
          type: "plan_update",
          explanation: view.explanation ?? null,
          plan: view.items.map((i) => ({ step: i.text, status: i.status })),
        }];
      case "fetch":
        return [{
          type: event.type === "tool_start" ? "web_search_begin" : "web_search_end",
          call_id,
          query: view.query ?? view.url,
        }];
      default:
        return [];
    }
  }

  /** Codex's event for an approval it asks about: a command's, or a patch's. */
  #approvalRequest(callId: string, reason: string): CodexMsg[] {
    const view = this.pending(callId);
    const input = this.pendingInput(callId);
    if (view?.kind === "command") {
      return [{ type: "exec_approval_request", ...this.#command(view, input), reason }];
    }
    if (view?.kind !== "file_change") return [];
    return [{
      type: "apply_patch_approval_request",
      call_id: callId,
      changes: changesOf(view.changes, input),
      reason,
      grant_root: null,
    }];
  }

  #command(view: ToolView & { kind: "command" }, input: unknown) {
    const cwd = view.cwd ? resolve(this.#cwd, view.cwd) : this.#cwd;
    return {
      call_id: view.callId,
      command: commandArgv(input, view.command),
      cwd,
      parsed_cmd: parsedCommand(view.command),
    };
  }
}

/** The argv a command runs as: the shell, its flag, the command line (Codex sends argv). */
export function commandArgv(input: unknown, command: string): string[] {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  const shell = typeof fields.shell === "string" ? fields.shell : "bash";
  return [shell, fields.login === true ? "-lc" : "-c", command];
}

/** Codex's reading of a command line; ours does not parse it, so it is one unknown command. */
export function parsedCommand(command: string): Array<{ type: string; cmd: string }> {
  return [{ type: "unknown", cmd: command }];
}

/** Codex's `changes` map: each path to its add, delete or update. */
export function changesOf(changes: FileChangeView[], input: unknown): Record<string, unknown> {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  const content = typeof fields.content === "string" ? fields.content : "";
  const out: Record<string, unknown> = {};
  for (const change of changes) {
    out[change.path] = change.kind === "update"
      ? { type: "update", unified_diff: change.diff, move_path: change.movedTo ?? null }
      : { type: change.kind, content: change.kind === "add" ? content : "" };
  }
  return out;
}

/** `session_configured`: the session's id, model and settings, sent once it is open. */
export function sessionConfigured(id: string, info: SessionInfo, status: SessionStatus): CodexMsg {
  return {
    type: "session_configured",
    session_id: id,
    model: info.model,
    model_provider_id: info.provider,
    cwd: info.cwd,
    approval_policy: status.approval,
    sandbox_policy: { type: status.sandboxMode },
    reasoning_effort: status.reasoningEffort ?? null,
    history_log_id: 0,
    history_entry_count: 0,
    rollout_path: status.sessionFile ?? null,
  };
}

/** `token_count`: the session's total usage, the last turn's, and the context window. */
export function tokenCount(total: Usage, last: Usage, contextWindow: number): CodexMsg {
  return {
    type: "token_count",
    info: {
      total_token_usage: codexUsage(total),
      last_token_usage: codexUsage(last),
      model_context_window: contextWindow,
    },
    rate_limits: null,
  };
}

function codexUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    cached_input_tokens: usage.cachedInputTokens,
    output_tokens: usage.outputTokens,
    reasoning_output_tokens: usage.reasoningTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function assistantMsgs(blocks: Block[]): CodexMsg[] {
  const out: CodexMsg[] = [];
  for (const block of blocks) {
    if (block.type === "thinking" && block.text.trim()) {
      out.push({ type: "agent_reasoning", text: block.text.trim() });
    }
  }
  const text = blocks.filter((b) => b.type === "text").map((b) => b.text).join("").trim();
  if (text) out.push({ type: "agent_message", message: text });
  return out;
}

function commandEnd(view: ToolView & { kind: "command" }) {
  const output = view.status === "done" ? view.output ?? "" : view.error ?? "";
  const ms = view.durationMs ?? 0;
  return {
    stdout: output,
    stderr: "",
    aggregated_output: output,
    exit_code: typeof view.exitCode === "number" ? view.exitCode : -1,
    duration: { secs: Math.floor(ms / 1000), nanos: Math.round((ms % 1000) * 1e6) },
    formatted_output: output,
  };
}
