/**
 * Tools that do not come from `harness.toml`: an MCP server's, and anything else that offers
 * tools at run time. A source yields declarations with what they may do; the harness decides
 * only what they are called on the wire and whether they are sent at once or deferred
 * (`lib/loop/tool_sources.ts`). Their calls pass the same hook chain as every other call.
 */
import type { ToolContext } from "./types.ts";

/** What a tool does, as approval and front ends see it. */
export type SourceToolKind = "read" | "edit" | "execute" | "fetch" | "other";

/** A source tool's result: text for the model, flagged when the tool reports a failure. */
export interface SourceToolResult {
  text: string;
  isError?: boolean;
  /** Images for the model after the text (an MCP tool's image content); each wire sends them. */
  images?: ImageData[];
  /** The answer as the source gave it (an MCP `tools/call` result), for front ends to show. */
  answer?: SourceAnswer;
}

/** An MCP `tools/call` result as the server sent it. */
export interface SourceAnswer {
  content: unknown[];
  structuredContent?: unknown;
  _meta?: unknown;
}

/** An image as tool results carry it: the internal `image` block's fields. */
export interface ImageData {
  mime: string;
  base64: string;
}

/** One tool a source offers. */
export interface SourceTool {
  /** Its own name; the harness makes the wire name from it and the source's id. */
  name: string;
  description: string;
  /** JSON Schema of its arguments (an object schema), sent as the declaration's parameters. */
  inputSchema: Record<string, unknown>;
  kind: SourceToolKind;
  /** Whether it changes anything; approval treats it like a capability with this flag. */
  mutates: boolean;
  /**
   * Runs it with the model's arguments (a JSON object, which the tool checks itself). Throw
   * ToolError for a failure the model can act on; `ctx.progress` reports output as it comes.
   */
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<SourceToolResult>;
}

/**
 * Something that offers tools: an MCP server, a test. `tools()` is asked at the start of every
 * turn, so a source can change what it offers between turns; it should not throw (a source
 * whose listing fails is left out of that turn).
 */
export interface ToolSource {
  /** Short and stable: it goes into the tools' wire names (`mcp__<id>__<tool>`). */
  id: string;
  tools(signal: AbortSignal): Promise<SourceTool[]>;
}
