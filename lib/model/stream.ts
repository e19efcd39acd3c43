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
 * `done` or `error` as the last event.
 */
export type StreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; argsDelta: string }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "done"; blocks: Block[]; stop: StopReason; usage: Usage }
  | { type: "error"; error: ProviderFailure };
