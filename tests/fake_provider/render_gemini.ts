/**
 * Renders a reply plan as the Gemini API answers: `streamGenerateContent?alt=sse` chunks (each a
 * `GenerateContentResponse` of one candidate), or one `generateContent` JSON body. Reasoning
 * comes as thought parts; its opaque token is the `thoughtSignature` of the first function call
 * (of the last text part, of the thought part when there is neither), where Gemini puts it.
 */
import { chunks, type PlannedUsage, type ReplyPlan } from "./plan.ts";
import { sseFrame } from "./sse.ts";

type Part = Record<string, unknown>;

const FINISH_REASON = {
  end_turn: "STOP",
  tool_calls: "STOP",
  max_tokens: "MAX_TOKENS",
  refusal: "SAFETY",
};

/** The SSE frames of a streamed reply: thoughts, text, the calls, then finish and usage. */
export function geminiStreamFrames(plan: ReplyPlan): string[] {
  const batches: Part[][] = [];
  const size = plan.chunkSize;
  if (plan.thinking) {
    batches.push(...chunks(plan.thinking.text, size).map((text) => [{ text, thought: true }]));
  }
  const text = plan.text ?? plan.refusal;
  if (text !== undefined) batches.push(...chunks(text, size).map((piece) => [{ text: piece }]));
  if (plan.calls.length > 0) batches.push(callParts(plan));
  sign(batches.flat(), plan);
  const frames: Record<string, unknown>[] = batches.map((parts) => candidateChunk(plan, parts));
  frames.push({
    ...candidateChunk(plan, [{ text: "" }], FINISH_REASON[plan.stop]),
    usageMetadata: geminiUsage(plan.usage),
  });
  return frames.map((frame) => sseFrame(frame));
}

/** The JSON body of a `generateContent` reply. */
export function geminiJson(plan: ReplyPlan): Record<string, unknown> {
  const parts: Part[] = [];
  if (plan.thinking) parts.push({ text: plan.thinking.text, thought: true });
  const text = plan.text ?? plan.refusal;
  if (text !== undefined) parts.push({ text });
  parts.push(...callParts(plan));
  sign(parts, plan);
  return {
    ...candidateChunk(plan, parts, FINISH_REASON[plan.stop]),
    usageMetadata: geminiUsage(plan.usage),
  };
}

function callParts(plan: ReplyPlan): Part[] {
  return plan.calls.map((call) => ({
    functionCall: { id: call.id, name: call.name, args: call.args },
  }));
}

/** Puts the reasoning's token on the part Gemini would: first call, else last text, else thought. */
function sign(parts: Part[], plan: ReplyPlan): void {
  if (!plan.thinking) return;
  const target = parts.find((p) => p.functionCall) ??
    parts.findLast((p) => typeof p.text === "string" && p.thought !== true) ??
    parts.findLast((p) => p.thought === true);
  if (target) target.thoughtSignature = plan.thinking.sealed;
}

function candidateChunk(
  plan: ReplyPlan,
  parts: Part[],
  finishReason?: string,
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
  if (finishReason) candidate.finishReason = finishReason;
  return { candidates: [candidate], modelVersion: plan.model, responseId: plan.id };
}

/** Gemini counts thoughts apart from the candidates; the plan's `output` includes them. */
function geminiUsage(usage: PlannedUsage): Record<string, unknown> {
  const candidates = Math.max(0, usage.output - usage.reasoning);
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.input + usage.output,
    ...(usage.cached ? { cachedContentTokenCount: usage.cached } : {}),
    ...(usage.reasoning ? { thoughtsTokenCount: usage.reasoning } : {}),
  };
}
