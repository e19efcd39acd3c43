import type { LoopShape } from "../harness/loop_shape_names.ts";
import type { Message, Usage } from "../model/message.ts";
import type { ProviderFailure, RetryEvent } from "../model/stream.ts";
import type { ToolProgress } from "../tools/types.ts";

/** A tool call as the loop tracks it. */
export interface ToolCallInfo {
  id: string;
  name: string;
  args: unknown;
}

/**
 * Why a tool call failed: its arguments did not fit the tool, it named no tool of the harness, the
 * command it ran exited non-zero, or anything else (a missing file, a refusal, a hook's denial).
 */
export type ToolFailure = "arguments" | "unknown_tool" | "command" | "other";

/** Everything the loop reports while it runs. UIs, persistence and tests subscribe to these. */
export type LoopEvent =
  | { type: "model_request"; index: number }
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | RetryEvent
  | { type: "assistant_message"; message: Message & { role: "assistant" } }
  | { type: "tool_start"; call: ToolCallInfo; capability?: string; input?: unknown }
  | {
    type: "tool_end";
    call: ToolCallInfo;
    capability?: string;
    output?: unknown;
    text: string;
    isError: boolean;
    /** The user interrupted the call (Ctrl-C, Esc); `text` is the harness's `interruptedText`. */
    interrupted?: true;
    /** Why the call failed, when it did (the wire's error flag, or a call that never ran). */
    failure?: ToolFailure;
  }
  /** Output of a running call, throttled and capped (`lib/loop/_progress.ts`). */
  | { type: "tool_progress"; callId: string; stream: ToolProgress["stream"]; text: string }
  /** Tool calls written as text were recovered as structured calls (`tool_call_repair`). */
  | { type: "tool_calls_repaired"; count: number; formats: string[] }
  /** A text-protocol reply held no usable command (none, several, or unparsable). */
  | { type: "format_error" }
  /** The reply was cut off while it streamed: it repeated `span` `repeats` times in a row. */
  | { type: "reply_cut"; channel: "text" | "reasoning"; span: string; repeats: number }
  | { type: "turn_end"; outcome: TurnOutcome; usage: Usage };

/**
 * What the loop guard stopped a turn on (the outcome's `words` say it for people): a failing call,
 * or, with `shape`, a reply without a usable command (`name` "format error"), a cycle of calls
 * (`name` their names joined by " → ", `args` theirs in order), a read-only call, steps that
 * repeat earlier calls (the last call), or replies cut off for repeating a span (`name` "text" or
 * "reasoning").
 */
export interface RepeatedCall {
  /** What repeated; absent means the same failing call. */
  shape?: LoopShape;
  name: string;
  args: unknown;
  /**
   * The start of the error it got each time: a read's result, a format error's text, or the
   * repeated span of a reply.
   */
  error: string;
  /** How many times in a row it was made (a cycle: gone through; replies: cut off). */
  repeats: number;
}

/** A stopped loop in words for people, whatever the front end (`describeLoop()` writes it). */
export interface LoopDescription {
  /** What the model did, after "Stopped: " ("the same failing call 4 times in a row"). */
  headline: string;
  /** The whole error line, naming what repeated. */
  message: string;
  /** What it got each time, as a sentence without a final period, or "". */
  detail: string;
  /** How to allow more: the `[loop_guard]` key and what it sets. */
  setting: string;
}

/** How a turn ended. */
export type TurnOutcome =
  /** `refused`: the model declined (stop reason `refusal`); `finalText` is its refusal. */
  | { status: "completed"; finalText: string; refused?: true }
  | { status: "failed"; error: ProviderFailure }
  | { status: "aborted" }
  | { status: "step_limit"; limit: number }
  /** The session's cost (USD) reached `max_budget_usd` before a request. */
  | { status: "budget_limit"; limit: number; spent: number }
  /**
   * The loop guard stopped the model repeating itself (`call` says how, `words` in words for
   * people); `harnesses` (filled in by the session) are the ones worth trying instead.
   */
  | { status: "repeated_call"; call: RepeatedCall; words: LoopDescription; harnesses?: string[] };
