import type { Effort, RequestSpecs, ThinkingMode } from "./request_settings.ts";

/** One internal message model. Provider adapters translate it to and from each wire format. */

/** A piece of message content. */
export type Block =
  /**
   * `context`: text the harness added (a reminder, the environment), not typed by the user.
   * `cache`: a cache breakpoint goes on this block where the wire has them (Messages).
   */
  | { type: "text"; text: string; context?: boolean; cache?: boolean; signature?: string }
  /** Model reasoning. `signature` (Messages) or `encrypted` (Responses) is replayed verbatim. */
  | { type: "thinking"; text: string; signature?: string; encrypted?: string; id?: string }
  /**
   * A model's tool call. `signature` (on it and on text): the Gemini wire's `thoughtSignature`
   * of the part, replayed on the same part; it stays when the harness drops thinking.
   */
  | {
    type: "tool_call";
    id: string;
    name: string;
    args: unknown;
    rawArgs?: string;
    signature?: string;
    /** Responses code mode: the namespace the call named (`clock`), replayed with it. */
    namespace?: string;
    /** A freeform (custom) tool's call: `args` is `{ input }`, the raw text the model wrote. */
    freeform?: boolean;
  }
  | { type: "image"; mime: string; base64: string };

/** Why the model stopped producing output; `refusal`: it declined (its text says why). */
export type StopReason =
  | "end_turn"
  | "tool_calls"
  | "max_tokens"
  | "refusal"
  | "error"
  | "aborted";

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
  /**
   * `systemRole`: harness context sent as a system-role message where the wire and endpoint
   * take one there (a Responses developer item, a Messages system message), else as user text.
   */
  | { role: "user"; blocks: Block[]; systemRole?: boolean }
  | { role: "assistant"; blocks: Block[]; stop: StopReason; usage: Usage }
  | { role: "tool_result"; callId: string; name: string; blocks: Block[]; isError: boolean };

/** A tool as the model sees it: the vendor's name, our description, the exact JSON schema. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Responses code mode: the namespace the tool is sent in (`functions`, `clock`). */
  namespace?: string;
  /**
   * A freeform tool (Responses `custom`): the model writes raw text in this grammar, which the
   * loop passes as the argument `input`; `parameters` then declares just `input`.
   */
  format?: { type: "grammar"; syntax: "lark" | "regex"; definition: string };
}

/**
 * A piece of the system prompt. Messages sends each as its own `system` block (`cache` puts a
 * cache breakpoint on it); Chat joins them into one system message; Responses sends "system"
 * parts as `instructions` and "developer" parts as developer messages at the start of `input`,
 * a part with `samePart` joining the previous developer message as a further content part.
 */
export interface SystemPart {
  text: string;
  slot: "system" | "developer";
  cache?: boolean;
  samePart?: boolean;
}

/** A system prompt of one plain part. */
export function systemText(text: string): SystemPart[] {
  return text ? [{ text, slot: "system" }] : [];
}

/** The system prompt as one text, parts joined by blank lines (token counts, one-string wires). */
export function joinedSystem(parts: SystemPart[]): string {
  return parts.map((p) => p.text).filter(Boolean).join("\n\n");
}

/** Everything a provider needs to make one model request. */
export interface ModelRequest {
  model: string;
  system: SystemPart[];
  messages: Message[];
  tools: ToolDeclaration[];
  /** The user's effort; "none" turns thinking and reasoning off. */
  reasoningEffort?: Effort | "none";
  maxOutputTokens?: number;
  /** The most output the model can give (from the model catalog): the harness's limit stays under it. */
  maxOutputCap?: number;
  /** The final answer must be JSON matching this schema (`--output-schema`). */
  outputSchema?: OutputSchema;
  /** What the harness sends on each wire besides the conversation (its `[request.<wire>]`). */
  settings?: RequestSpecs;
  /** The user's thinking mode (`model_thinking`), over the harness's; "off" sends none. */
  thinking?: ThinkingMode;
  /** Responses: the user's `reasoning.summary` (`model_reasoning_summary`). */
  reasoningSummary?: "auto" | "concise" | "detailed" | "none";
  /** Responses: `text.verbosity` (`model_verbosity`). */
  verbosity?: "low" | "medium" | "high";
  /** Hosted `web_search` (unset: "cached", as Codex). */
  webSearch?: "live" | "cached" | "disabled";
  /** Fills `{session_id}` in settings (prompt cache key, metadata, headers). */
  sessionId?: string;
  /** `{session_hash}`: the SHA-256 of the session id, in hex. */
  sessionHash?: string;
  /** Send the harness's vendor client identifiers too (`vendor_client_headers`). */
  vendorClientHeaders?: boolean;
  /** Our own version: `{version}` where the harness names no client version. */
  appVersion?: string;
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
