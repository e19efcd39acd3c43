/**
 * An MCP server's tools and results in our terms: a listed tool as a `SourceTool` declaration
 * (its schema made acceptable to every wire), and a `tools/call` result as text and images for
 * the model, an `isError` result as a ToolError. Pure.
 */
import { canonicalJson } from "../config/project_definitions.ts";
import { ToolError } from "../errors.ts";
import {
  capImages,
  capText,
  DEFAULT_MCP_OUTPUT_CAPS,
  type McpOutputCaps,
} from "../tools/mcp_output_caps.ts";
import type { SourceToolKind, SourceToolResult } from "../tools/tool_source.ts";

/**
 * A tool as `tools/list` gives it: the fields read here. (The SDK's own types reach us as `any`
 * through its zod schemas, so the shapes we rely on are written out.)
 */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean };
}

/** One content block of a result or prompt message. */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string } };

/** A `tools/call` result: the fields read here. */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** What a listed tool declares, before it is bound to a server. */
export interface ToolShape {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  kind: SourceToolKind;
  mutates: boolean;
}

/**
 * A listed tool as we declare it. `readOnlyHint` makes it a read (the approval policy lets it
 * run as it lets a file read run); every other tool counts as one that may change something.
 */
export function toolShape(tool: McpTool): ToolShape {
  const readOnly = tool.annotations?.readOnlyHint === true;
  return {
    name: tool.name,
    description: tool.description ?? tool.title ?? tool.annotations?.title ?? "",
    inputSchema: wireSchema(tool.inputSchema),
    kind: readOnly ? "read" : "other",
    mutates: !readOnly,
  };
}

/**
 * The input schema as the wires take it. MCP already requires `type: "object"`; what is fixed
 * here is only what a wire API rejects: Anthropic's Messages API refuses an `input_schema`
 * whose top level is not `type: "object"`, and OpenAI's function `parameters` must be an object
 * schema with `properties` (a bare `{ "type": "object" }` is refused by some Chat endpoints).
 * Nothing below the top level is touched: the schema reaches the model as the server wrote it.
 */
export function wireSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema, type: "object" };
  const properties = out.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    out.properties = {};
  }
  return out;
}

/**
 * A `tools/call` result for the model: its text blocks as text (embedded text resources and
 * links as text too, audio as a note), its images as images, and its structured content as
 * JSON text unless a text block already says the same. An `isError` result is a ToolError, so
 * that the harness shows it as its own tool errors. The text and the images are held to `caps`
 * (the server's `max_output_bytes` and `max_image_bytes`).
 */
export function resultForModel(
  result: McpCallResult,
  tool: string,
  caps: McpOutputCaps = DEFAULT_MCP_OUTPUT_CAPS,
): SourceToolResult {
  const texts: string[] = [];
  const images: Array<{ mime: string; base64: string }> = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "image":
        images.push({ mime: block.mimeType, base64: block.data });
        break;
      case "audio":
        texts.push(`[audio (${block.mimeType}) left out: it cannot be shown to the model]`);
        break;
      case "resource_link":
        texts.push(`Resource: ${block.name} (${block.uri})`);
        break;
      case "resource": {
        const r = block.resource;
        texts.push(r.text ?? `[resource ${r.uri} (${r.mimeType ?? "binary"})]`);
        break;
      }
    }
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !saysTheSame(texts, structured)) {
    texts.push(JSON.stringify(structured));
  }
  const shown = capImages(images, caps.imageBytes);
  const text = capText([...texts, ...shown.notes].join("\n"), caps.textBytes);
  if (result.isError === true) {
    throw new ToolError(text || `The MCP tool "${tool}" reported an error without a message`);
  }
  const answer = {
    content: result.content ?? [],
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    ...(result._meta !== undefined ? { _meta: result._meta } : {}),
  };
  return shown.images.length > 0 ? { text, images: shown.images, answer } : { text, answer };
}

/**
 * Whether the text blocks already carry `structured`: one block is the same JSON (any spacing or
 * key order), or, for a value a server wrapped as `{"result": value}` (the Python SDK's FastMCP
 * does so for anything but an object), one block is that value, or the blocks are its items.
 */
function saysTheSame(texts: string[], structured: Record<string, unknown>): boolean {
  const values = texts.map(parsed);
  const wanted = canonicalJson(structured);
  if (values.some((v) => canonicalJson(v) === wanted)) return true;
  const keys = Object.keys(structured);
  if (keys.length !== 1 || keys[0] !== "result") return false;
  const inner = canonicalJson(structured.result);
  return values.some((v) => canonicalJson(v) === inner) ||
    (texts.length > 0 && canonicalJson(values) === inner) ||
    (texts.length === 1 && texts[0].trim() === String(structured.result));
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
