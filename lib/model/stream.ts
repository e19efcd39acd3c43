import type { Block, StopReason, Usage } from "./message.ts";

/** Why a provider request failed, in terms the loop and the user can act on. */
export interface ProviderFailure {
  message: string;
  hint?: string;
  status?: number;
  retryable: boolean;
}

/**
 * Events a provider stream yields, in order: deltas as they arrive, then exactly one of
 * `done` or `error` as the last event. A `retry` event may come between attempts; the final
 * event's blocks are always one whole reply, never pieces of a failed attempt.
 */
export type StreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; argsDelta: string }
  | HostedToolEvent
  | RetryEvent
  | { type: "done"; blocks: Block[]; stop: StopReason; usage: Usage }
  | { type: "error"; error: ProviderFailure };

/** A search the server ran itself (hosted `web_search`), for display only. */
export type HostedToolEvent =
  | { type: "hosted_tool_start"; id: string; query: string }
  | { type: "hosted_tool_end"; id: string; query: string; failed: boolean };

/**
 * An attempt failed and retry `attempt` of `maxRetries` starts after `delayMs`. A request that
 * failed before its stream started and a stream that broke after it started count against
 * separate budgets; `attempt` and `maxRetries` are those of the budget this failure spends. When
 * `discarded` is true the attempt had streamed deltas: they were part of a reply that is thrown
 * away, and the next attempt streams the reply again from its start.
 */
export interface RetryEvent {
  type: "retry";
  attempt: number;
  maxRetries: number;
  delayMs: number;
  reason: string;
  discarded: boolean;
}
