/** Renders a reply plan as an Anthropic Messages stream or JSON body. */
import { chunks, type PlannedUsage, type ReplyPlan } from "./plan.ts";
import { typedFrame } from "./sse.ts";

type Block = Record<string, unknown>;

const STOP_REASON = {
  end_turn: "end_turn",
  tool_calls: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
};

/** The SSE frames of a streamed message, from `message_start` to `message_stop`. */
export function messagesStreamFrames(plan: ReplyPlan): string[] {
  const events: { type: string; [field: string]: unknown }[] = [];
  const emit = (type: string, fields: Record<string, unknown> = {}) =>
    events.push({ type, ...fields });
  const start = messagesJson(plan);
  emit("message_start", {
    message: {
      ...start,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...messagesUsage(plan.usage), output_tokens: 1 },
    },
  });
  emit("ping");
  const block = (content_block: Block, deltas: Block[]) => {
    const index = events.filter((e) => e.type === "content_block_start").length;
    emit("content_block_start", { index, content_block });
    for (const delta of deltas) emit("content_block_delta", { index, delta });
    emit("content_block_stop", { index });
  };
  const size = plan.chunkSize;
  if (plan.thinking) {
    block({ type: "thinking", thinking: "", signature: "" }, [
      ...chunks(plan.thinking.text, size).map((thinking) => ({ type: "thinking_delta", thinking })),
      { type: "signature_delta", signature: plan.thinking.sealed },
    ]);
  }
  const text = plan.text ?? plan.refusal;
  if (text !== undefined) {
    block(
      { type: "text", text: "" },
      chunks(text, size).map((text) => ({ type: "text_delta", text })),
    );
  }
  for (const call of plan.calls) {
    block(
      { type: "tool_use", id: call.id, name: call.name, input: {} },
      chunks(call.argsJson, size).map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      })),
    );
  }
  emit("message_delta", {
    delta: { stop_reason: STOP_REASON[plan.stop], stop_sequence: null },
    usage: messagesUsage(plan.usage),
  });
  emit("message_stop");
  return events.map(typedFrame);
}

/** The JSON body of a non-streamed message. */
export function messagesJson(plan: ReplyPlan): Record<string, unknown> {
  const content: Block[] = [];
  if (plan.thinking) {
    content.push({
      type: "thinking",
      thinking: plan.thinking.text,
      signature: plan.thinking.sealed,
    });
  }
  const text = plan.text ?? plan.refusal;
  if (text !== undefined) content.push({ type: "text", text });
  for (const call of plan.calls) {
    content.push({ type: "tool_use", id: call.id, name: call.name, input: call.args });
  }
  return {
    id: plan.id,
    type: "message",
    role: "assistant",
    model: plan.model,
    content,
    stop_reason: STOP_REASON[plan.stop],
    stop_sequence: null,
    usage: messagesUsage(plan.usage),
  };
}

/** Anthropic counts cache reads apart from `input_tokens`; the plan's `input` includes them. */
function messagesUsage(usage: PlannedUsage): Record<string, unknown> {
  return {
    input_tokens: Math.max(0, usage.input - usage.cached),
    output_tokens: usage.output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cached,
  };
}
