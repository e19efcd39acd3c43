import type { Block, ModelRequest } from "../model/message.ts";
import { emptyUsage, systemText } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import type { LoopState } from "./agent_loop.ts";
import type { ToolHooks } from "./tool_hooks.ts";
import type { TurnContext } from "../tools/types.ts";

/**
 * An in-process provider that answers each request with the next scripted reply (assistant
 * blocks, or a raw stream event such as an error), reporting one output token per reply, and
 * records every request. Test helper.
 */
export function scriptedProvider(replies: Array<Block[] | StreamEvent>) {
  const requests: ModelRequest[] = [];
  const provider: Provider = {
    settings: {} as ProviderSettings,
    async *stream(request) {
      requests.push(structuredClone(request));
      const next = replies.shift();
      if (!next) throw new Error("script exhausted");
      if (!Array.isArray(next)) return yield next;
      const stop = next.some((b) => b.type === "tool_call") ? "tool_calls" : "end_turn";
      yield { type: "done", blocks: next, stop, usage: { ...emptyUsage(), outputTokens: 1 } };
    },
  };
  return { provider, requests };
}

/** A tool-call block. Test helper. */
export function call(id: string, name: string, args: unknown): Block {
  return { type: "tool_call", id, name, args };
}

/** A conversation that starts with one user message. Test helper. */
export function freshState(prompt = "go"): LoopState {
  return {
    model: "m",
    system: systemText("s"),
    messages: [{ role: "user", blocks: [{ type: "text", text: prompt }] }],
    usage: emptyUsage(),
  };
}

/** A hook chain without links: every call runs, inside the sandbox. Test helper. */
export const allowAll: ToolHooks = () => [];

/** A turn's tool context in `cwd` on file system `fs` (the host's in tests), with the host's PATH. */
export function testContext(cwd: string, signal: AbortSignal, fs: TurnContext["fs"]): TurnContext {
  return { cwd, signal, env: { PATH: Deno.env.get("PATH") ?? "" }, state: new Map(), fs };
}
