/** One internal message model. Provider adapters translate it to and from each wire format. */

/** A piece of message content. */
export type Block =
  | { type: "text"; text: string }
  /** Model reasoning. `signature` (Messages) or `encrypted` (Responses) is replayed verbatim. */
  | { type: "thinking"; text: string; signature?: string; encrypted?: string; id?: string }
  | { type: "tool_call"; id: string; name: string; args: unknown; rawArgs?: string }
  | { type: "image"; mime: string; base64: string };

/** Why the model stopped producing output. */
export type StopReason = "end_turn" | "tool_calls" | "max_tokens" | "error" | "aborted";

/** Token counts reported by the provider. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
}

/** A usage record with every count at zero. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** Adds `b` into `a` and returns `a`. */
export function addUsage(a: Usage, b: Usage): Usage {
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.cachedInputTokens += b.cachedInputTokens;
  a.reasoningTokens += b.reasoningTokens;
  return a;
}

/** A message in the conversation. */
export type Message =
  | { role: "user"; blocks: Block[] }
  | { role: "assistant"; blocks: Block[]; stop: StopReason; usage: Usage }
  | { role: "tool_result"; callId: string; name: string; blocks: Block[]; isError: boolean };

/** A tool as the model sees it: the vendor's name, our description, the exact JSON schema. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Everything a provider needs to make one model request. */
export interface ModelRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolDeclaration[];
  reasoningEffort?: "minimal" | "low" | "medium" | "high" | "xhigh";
  maxOutputTokens?: number;
  /** The final answer must be JSON matching this schema (`--output-schema`). */
  outputSchema?: OutputSchema;
}

/** A JSON Schema the final answer must match; sent as each wire's structured-output setting. */
export interface OutputSchema {
  name: string;
  schema: Record<string, unknown>;
  strict: boolean;
}

/** Joins the text blocks of a message. */
export function textOf(blocks: Block[]): string {
  return blocks.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join("");
}
