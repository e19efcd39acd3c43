/**
 * Carrying a conversation from one harness to another: earlier tool calls are shown to the new
 * harness under its own tool names where a tool of the same capability takes the same arguments,
 * and as plain text otherwise, so that no request names a tool the new harness does not have.
 */
import type { Block, Message } from "../model/message.ts";
import { resolveCall } from "./call.ts";
import type { Harness, HarnessTool } from "./types.ts";

/** `messages` as `to` can take them; `from` is the harness that made the calls. */
export function translateHistory(messages: Message[], from: Harness, to: Harness): Message[] {
  const renamed = new Map<string, string | null>();
  const out: Message[] = [];
  // Results written as text wait until the turn's tool results have all followed its calls.
  const held: string[] = [];
  const release = () => held.splice(0).forEach((text) => pushUser(out, text));
  for (const message of messages) {
    if (message.role !== "tool_result") release();
    if (message.role === "assistant") {
      const blocks = message.blocks.map((block): Block => {
        if (block.type !== "tool_call") return block;
        const call = to.protocol ? undefined : mapCall(block, from, to);
        renamed.set(block.id, call ? call.name : null);
        return call ??
          { type: "text", text: `(called ${block.name} ${JSON.stringify(block.args)})` };
      });
      out.push({ ...message, blocks });
    } else if (message.role === "tool_result" && renamed.has(message.callId)) {
      const name = renamed.get(message.callId);
      if (name) {
        out.push({ ...message, name });
      } else {
        const text = message.blocks.map((b) => b.type === "text" ? b.text : "").join("\n");
        held.push(`Result of ${message.name}${message.isError ? " (failed)" : ""}:\n${text}`);
      }
    } else if (message.role === "user") {
      for (const block of message.blocks) {
        if (block.type === "text") pushUser(out, block.text);
        else out.push({ role: "user", blocks: [block] });
      }
    } else {
      out.push(message);
    }
  }
  release();
  return out;
}

/** Reasoning another model cannot verify (signed or encrypted) is left out. */
export function withoutSealedReasoning(messages: Message[]): Message[] {
  return messages.map((m) =>
    m.role === "assistant"
      ? {
        ...m,
        blocks: m.blocks.filter((b) => !(b.type === "thinking" && (b.signature || b.encrypted))),
      }
      : m
  );
}

/** Appends text as a user message, joining it to a user message just before. */
function pushUser(out: Message[], text: string): void {
  const last = out.at(-1);
  if (last?.role === "user" && last.blocks.every((b) => b.type === "text")) {
    out[out.length - 1] = { role: "user", blocks: [...last.blocks, { type: "text", text }] };
  } else {
    out.push({ role: "user", blocks: [{ type: "text", text }] });
  }
}

/** The same call as a tool of `to`, or undefined when `to` has no tool that takes it. */
function mapCall(
  block: Extract<Block, { type: "tool_call" }>,
  from: Harness,
  to: Harness,
): Extract<Block, { type: "tool_call" }> | undefined {
  let input: Record<string, unknown>;
  let capability: string;
  try {
    const resolved = resolveCall(from, block);
    // The source harness's fixed arguments are its own setting, not the model's: left behind.
    input = Object.fromEntries(
      Object.entries((resolved.input ?? {}) as Record<string, unknown>)
        .filter(([field]) => !(field in resolved.tool.fixedArgs)),
    );
    capability = resolved.capability.id;
  } catch {
    return undefined;
  }
  for (const tool of to.tools.filter((t) => !t.deferred && t.capability === capability)) {
    const args = argsFor(tool, input);
    if (!args) continue;
    try {
      resolveCall(to, { name: tool.declaration.name, args });
    } catch {
      continue;
    }
    return { type: "tool_call", id: block.id, name: tool.declaration.name, args };
  }
  return undefined;
}

/** The wire arguments of `tool` for a capability input, when every field has a parameter. */
function argsFor(
  tool: HarnessTool,
  input: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined || field in tool.fixedArgs) continue;
    const wire = Object.entries(tool.args).find(([w, f]) => f === field && !(w in tool.scale))?.[0];
    if (!wire) return undefined;
    args[wire] = value;
  }
  return args;
}
