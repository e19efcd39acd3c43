/**
 * Tools the provider's server runs itself (OpenAI's hosted `web_search`), loaded when a reply
 * holds one: shown as the events of our own `web.search` calls, so every front end shows them
 * alike; nothing answers them.
 */
import type { HostedToolEvent } from "../model/stream.ts";
import type { LoopEvent } from "./events.ts";

/** The loop event of a hosted search's start or end. */
export function hostedToolEvent(event: HostedToolEvent): LoopEvent {
  const call = { id: event.id, name: "web_search", args: { query: event.query } };
  const capability = "web.search";
  if (event.type === "hosted_tool_start") {
    return { type: "tool_start", call, capability, input: call.args };
  }
  return { type: "tool_end", call, capability, output: call.args, text: "", isError: event.failed };
}
