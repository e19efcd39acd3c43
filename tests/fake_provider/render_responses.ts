/** Renders a reply plan as an OpenAI Responses stream or JSON body. */
import { chunks, type PlannedCall, type PlannedThinking, type ReplyPlan } from "./plan.ts";
import { typedFrame } from "./sse.ts";

type Item = Record<string, unknown>;
type Emit = (type: string, fields: Record<string, unknown>) => void;

/** The SSE frames of a streamed response, from `response.created` to `response.completed`. */
export function responsesStreamFrames(plan: ReplyPlan): string[] {
  const events: { type: string; [field: string]: unknown }[] = [];
  const emit: Emit = (type, fields) =>
    events.push({ type, sequence_number: events.length, ...fields });
  emit("response.created", { response: responseObject(plan, "in_progress", []) });
  emit("response.in_progress", { response: responseObject(plan, "in_progress", []) });
  const output: Item[] = [];
  const stream = (added: Item, done: Item, body: (index: number) => void) => {
    const output_index = output.length;
    emit("response.output_item.added", { output_index, item: added });
    body(output_index);
    emit("response.output_item.done", { output_index, item: done });
    output.push(done);
  };
  if (plan.thinking) {
    const thinking = plan.thinking;
    stream(
      { id: thinking.itemId, type: "reasoning", summary: [] },
      reasoningItem(thinking),
      (i) => emitReasoning(emit, plan, i),
    );
  }
  for (const search of plan.searches) {
    stream(searchItem(search, "in_progress"), searchItem(search, "completed"), () => {});
  }
  if (plan.text !== undefined || plan.refusal !== undefined) {
    const added = { id: plan.messageItemId, type: "message", role: "assistant" };
    stream(
      { ...added, status: "in_progress", content: [] },
      messageItem(plan),
      (i) => emitText(emit, plan, i),
    );
  }
  for (const call of plan.calls) {
    const pending = call.input === undefined ? { arguments: "" } : { input: "" };
    stream(
      { ...callItem(call), ...pending, status: "in_progress" },
      callItem(call),
      (i) => emitArguments(emit, plan, call, i),
    );
  }
  const final = responsesJson(plan);
  emit(final.status === "completed" ? "response.completed" : "response.incomplete", {
    response: final,
  });
  return events.map(typedFrame);
}

/** The JSON body of a non-streamed response; also the payload of `response.completed`. */
export function responsesJson(plan: ReplyPlan): Record<string, unknown> {
  const output: Item[] = [];
  if (plan.thinking) output.push(reasoningItem(plan.thinking));
  for (const search of plan.searches) output.push(searchItem(search, "completed"));
  if (plan.text !== undefined || plan.refusal !== undefined) output.push(messageItem(plan));
  for (const call of plan.calls) output.push(callItem(call));
  const incomplete = plan.stop === "max_tokens";
  const response = responseObject(plan, incomplete ? "incomplete" : "completed", output);
  response.incomplete_details = incomplete ? { reason: "max_output_tokens" } : null;
  response.usage = {
    input_tokens: plan.usage.input,
    input_tokens_details: { cached_tokens: plan.usage.cached },
    output_tokens: plan.usage.output,
    output_tokens_details: { reasoning_tokens: plan.usage.reasoning },
    total_tokens: plan.usage.input + plan.usage.output,
  };
  return response;
}

function emitReasoning(emit: Emit, plan: ReplyPlan, output_index: number): void {
  const { itemId: item_id, text } = plan.thinking!;
  const where = { item_id, output_index, summary_index: 0 };
  emit("response.reasoning_summary_part.added", {
    ...where,
    part: { type: "summary_text", text: "" },
  });
  for (const delta of chunks(text, plan.chunkSize)) {
    emit("response.reasoning_summary_text.delta", { ...where, delta });
  }
  emit("response.reasoning_summary_text.done", { ...where, text });
  emit("response.reasoning_summary_part.done", { ...where, part: { type: "summary_text", text } });
}

/** The text deltas of the message item, or its refusal deltas (`response.refusal.*`). */
function emitText(emit: Emit, plan: ReplyPlan, output_index: number): void {
  const where = { item_id: plan.messageItemId, output_index, content_index: 0 };
  if (plan.refusal !== undefined) {
    const refusal = plan.refusal;
    emit("response.content_part.added", { ...where, part: refusalPart("") });
    for (const delta of chunks(refusal, plan.chunkSize)) {
      emit("response.refusal.delta", { ...where, delta });
    }
    emit("response.refusal.done", { ...where, refusal });
    emit("response.content_part.done", { ...where, part: refusalPart(refusal) });
    return;
  }
  const text = plan.text!;
  emit("response.content_part.added", { ...where, part: outputText("") });
  for (const delta of chunks(text, plan.chunkSize)) {
    emit("response.output_text.delta", { ...where, delta, logprobs: [] });
  }
  emit("response.output_text.done", { ...where, text, logprobs: [] });
  emit("response.content_part.done", { ...where, part: outputText(text) });
}

function emitArguments(emit: Emit, plan: ReplyPlan, call: PlannedCall, output_index: number) {
  const where = { item_id: call.itemId, output_index };
  if (call.input !== undefined) {
    for (const delta of chunks(call.input, plan.chunkSize)) {
      emit("response.custom_tool_call_input.delta", { ...where, delta });
    }
    emit("response.custom_tool_call_input.done", { ...where, input: call.input });
    return;
  }
  for (const delta of chunks(call.argsJson, plan.chunkSize)) {
    emit("response.function_call_arguments.delta", { ...where, delta });
  }
  emit("response.function_call_arguments.done", {
    ...where,
    name: call.name,
    arguments: call.argsJson,
  });
}

function responseObject(plan: ReplyPlan, status: string, output: Item[]): Record<string, unknown> {
  return {
    id: plan.id,
    object: "response",
    created_at: plan.created,
    status,
    model: plan.model,
    output,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: "auto",
    tools: [],
    top_p: null,
    usage: null,
  };
}

function reasoningItem(thinking: PlannedThinking): Item {
  return {
    id: thinking.itemId,
    type: "reasoning",
    summary: [{ type: "summary_text", text: thinking.text }],
    encrypted_content: thinking.sealed,
  };
}

function messageItem(plan: ReplyPlan): Item {
  return {
    id: plan.messageItemId,
    type: "message",
    role: "assistant",
    status: "completed",
    content: [plan.refusal !== undefined ? refusalPart(plan.refusal) : outputText(plan.text!)],
  };
}

function refusalPart(refusal: string): Item {
  return { type: "refusal", refusal };
}

function callItem(call: PlannedCall): Item {
  if (call.input !== undefined) {
    const { itemId: id, id: call_id, name, input } = call;
    return { id, type: "custom_tool_call", call_id, name, input, status: "completed" };
  }
  return {
    ...(call.namespace ? { namespace: call.namespace } : {}),
    id: call.itemId,
    type: "function_call",
    call_id: call.id,
    name: call.name,
    arguments: call.argsJson,
    status: "completed",
  };
}

function outputText(text: string): Item {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

/** A hosted search's output item, as OpenAI streams it (the action names the query). */
function searchItem(search: { itemId: string; query: string }, status: string): Item {
  const action = { type: "search", query: search.query };
  return { id: search.itemId, type: "web_search_call", status, action };
}
