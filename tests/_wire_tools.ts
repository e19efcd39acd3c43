import { advertisedTools, LOADED_TOOLS_KEY } from "../lib/harness/deferred.ts";
import type { Harness } from "../lib/harness/types.ts";
import type { ModelRequest, ToolDeclaration } from "../lib/model/message.ts";
import { toWire as toMessages } from "../lib/providers/anthropic_messages.ts";
import { toWire as toChat } from "../lib/providers/openai_chat.ts";
import { toWire as toResponses } from "../lib/providers/openai_responses.ts";
import { toWire as toGemini } from "../lib/providers/gemini_request.ts";
import type { WireApi } from "../lib/providers/types.ts";

const TO_WIRE: Record<WireApi, (r: ModelRequest) => Record<string, unknown>> = {
  chat: (r) => toChat(r, { compat: {} }),
  responses: (r) => toResponses(r, { compat: {} }),
  messages: (r) => toMessages(r, { compat: {} }),
  gemini: (r) => toGemini(r, { compat: {} }),
};

/** `body.tools` of the adapter's request for `tools`; [] when the adapter sends none. */
export function wireTools(wire: WireApi, tools: ToolDeclaration[]): unknown[] {
  const body = TO_WIRE[wire]({ model: "m", system: [], messages: [], tools });
  return Array.isArray(body.tools) ? body.tools : [];
}

/** The declarations the loop sends first, or with every deferred tool loaded. */
export function sentTools(h: Harness, opts: { loadAll?: boolean } = {}): ToolDeclaration[] {
  if (h.protocol) return [];
  const state = new Map<string, unknown>();
  if (opts.loadAll) {
    state.set(LOADED_TOOLS_KEY, h.tools.filter((t) => t.deferred).map((t) => t.declaration.name));
  }
  return advertisedTools(h, state);
}
