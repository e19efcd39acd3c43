/** Renders a reply plan as an OpenAI Chat Completions stream or JSON body. */
import { chunks, type PlannedUsage, type ReplyPlan } from "./plan.ts";
import { sseFrame } from "./sse.ts";

/** Chat-specific rendering choices taken from the request and the server options. */
export interface ChatRenderOptions {
  /** From `stream_options.include_usage`: end the stream with a usage-only chunk. */
  includeUsage: boolean;
  /** The delta and message field that carries reasoning, e.g. `reasoning_content`. */
  reasoningField: string;
}

/** A refusal finishes with "stop"; the `refusal` field says the model declined. */
const FINISH_REASON = {
  end_turn: "stop",
  tool_calls: "tool_calls",
  max_tokens: "length",
  refusal: "stop",
} as const;

const DETAIL = { type: "reasoning.text", format: "anthropic-claude-v1", index: 0 };

/**
 * A reasoning delta in `field`; "reasoning_details" sends OpenRouter's form, the text both as
 * `reasoning` and as a `reasoning.text` entry.
 */
function reasoningDelta(piece: string, field: string): Record<string, unknown> {
  if (field !== "reasoning_details") return { [field]: piece };
  return { reasoning: piece, reasoning_details: [{ ...DETAIL, text: piece }] };
}

/** The SSE frames of a streamed chat completion, ending with `data: [DONE]`. */
export function chatStreamFrames(plan: ReplyPlan, opts: ChatRenderOptions): string[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    sseFrame({
      id: plan.id,
      object: "chat.completion.chunk",
      created: plan.created,
      model: plan.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  const frames = [chunk({ role: "assistant", content: "" })];
  for (const piece of chunks(plan.thinking?.text ?? "", plan.chunkSize)) {
    frames.push(chunk(reasoningDelta(piece, opts.reasoningField)));
  }
  // OpenRouter's form ends the reasoning with the entry's signature.
  if (plan.thinking && opts.reasoningField === "reasoning_details") {
    frames.push(chunk({ reasoning_details: [{ ...DETAIL, signature: plan.thinking.sealed }] }));
  }
  for (const piece of chunks(plan.text ?? "", plan.chunkSize)) {
    frames.push(chunk({ content: piece }));
  }
  for (const piece of chunks(plan.refusal ?? "", plan.chunkSize)) {
    frames.push(chunk({ refusal: piece }));
  }
  plan.calls.forEach((call, index) => {
    frames.push(chunk({
      tool_calls: [{
        index,
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: "" },
      }],
    }));
    for (const piece of chunks(call.argsJson, plan.chunkSize)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(chunk({}, FINISH_REASON[plan.stop]));
  if (opts.includeUsage) {
    frames.push(sseFrame({
      id: plan.id,
      object: "chat.completion.chunk",
      created: plan.created,
      model: plan.model,
      choices: [],
      usage: chatUsage(plan.usage),
    }));
  }
  frames.push(sseFrame("[DONE]"));
  return frames;
}

/** The JSON body of a non-streamed chat completion. */
export function chatJson(plan: ReplyPlan, opts: ChatRenderOptions): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: plan.text ?? null,
    refusal: plan.refusal ?? null,
  };
  if (plan.thinking) message[opts.reasoningField] = plan.thinking.text;
  if (plan.calls.length > 0) {
    message.tool_calls = plan.calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.argsJson },
    }));
  }
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH_REASON[plan.stop] }],
    usage: chatUsage(plan.usage),
  };
}

function chatUsage(usage: PlannedUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}
