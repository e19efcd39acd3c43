/**
 * The session's events as ACP `session/update`s: text and reasoning deltas as message and
 * thought chunks, each tool call as a `tool_call` with `tool_call_update`s for its output and its
 * end, plans and to-do lists as `plan` updates. Keeps what pairs the events of one call (its
 * start, its output so far) and gives every call an id unique in the session, since models may
 * use one id in several turns.
 */
import type { SessionUpdate, ToolCallStatus } from "@agentclientprotocol/sdk";
import type { SessionEvent } from "../../session/open.ts";
import { ToolCallViews, type ToolView } from "../../session/tool_views/tool_view.ts";
import { commandContent, planEntries, toolCallContent, toolCallHead } from "./tool_calls.ts";

/** What a mapper is told at the start. */
export interface UpdateOptions {
  /** Send reasoning as thought chunks (false with `hide_agent_reasoning`). */
  showReasoning: boolean;
  /** Put before every tool call id (a review's calls beside the session's own). */
  idPrefix?: string;
  /** Leave the model's text out (a review, whose answer is JSON rendered afterwards). */
  hideText?: boolean;
}

/** Maps one session's events to updates; see the module comment. */
export class SessionUpdates {
  readonly #views = new ToolCallViews();
  readonly #opts: UpdateOptions;
  /** The ACP id of each call id now in use. */
  readonly #ids = new Map<string, string>();
  readonly #used = new Set<string>();
  /** Output of running commands, by ACP id. */
  readonly #output = new Map<string, string>();

  constructor(opts: UpdateOptions) {
    this.#opts = opts;
  }

  /** The ACP id of the call the model named `callId` (its latest use). */
  toolCallId(callId: string): string {
    return this.#ids.get(callId) ?? `${this.#opts.idPrefix ?? ""}${callId}`;
  }

  /** The updates `event` makes; none for events an editor is not shown. */
  map(event: SessionEvent): SessionUpdate[] {
    switch (event.type) {
      case "text_delta":
        return this.#opts.hideText ? [] : [chunk("agent_message_chunk", event.text)];
      case "thinking_delta":
        return this.#opts.showReasoning ? [chunk("agent_thought_chunk", event.text)] : [];
      case "tool_start":
        return this.#started(event);
      case "tool_progress":
        return this.#progress(event);
      case "tool_end":
        return this.#ended(event);
      case "session_started":
      case "tool_denied":
        this.#views.see(event);
        return [];
      default:
        return [];
    }
  }

  #started(event: Extract<SessionEvent, { type: "tool_start" }>): SessionUpdate[] {
    const view = this.#views.see(event)!;
    const id = this.#newId(event.call.id);
    return [{
      sessionUpdate: "tool_call",
      toolCallId: id,
      ...toolCallHead(view),
      status: "in_progress",
      rawInput: event.input ?? event.call.args,
    }];
  }

  #progress(event: Extract<SessionEvent, { type: "tool_progress" }>): SessionUpdate[] {
    if (event.stream === "status") return [];
    const id = this.toolCallId(event.callId);
    const output = (this.#output.get(id) ?? "") + event.text;
    this.#output.set(id, output);
    return [{ sessionUpdate: "tool_call_update", toolCallId: id, content: commandContent(output) }];
  }

  #ended(event: Extract<SessionEvent, { type: "tool_end" }>): SessionUpdate[] {
    const view = this.#views.see(event)!;
    const id = this.toolCallId(event.call.id);
    const streamed = this.#output.get(id);
    this.#output.delete(id);
    const withOutput: ToolView = view.kind === "command" && view.output === undefined
      ? { ...view, output: streamed ?? (view.status === "done" ? event.text : undefined) }
      : view;
    const status: ToolCallStatus = view.status === "done" ? "completed" : "failed";
    const updates: SessionUpdate[] = [{
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      ...toolCallHead(withOutput),
      status,
      content: toolCallContent(withOutput, event.text),
    }];
    if (view.kind === "plan" && status === "completed") {
      updates.push({ sessionUpdate: "plan", entries: planEntries(view.items) });
    }
    return updates;
  }

  #newId(callId: string): string {
    const base = `${this.#opts.idPrefix ?? ""}${callId}`;
    let id = base;
    for (let n = 2; this.#used.has(id); n++) id = `${base}-${n}`;
    this.#used.add(id);
    this.#ids.set(callId, id);
    return id;
  }
}

/** A text chunk of the user, the agent or its reasoning. */
export function chunk(
  kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
  text: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text } };
}
