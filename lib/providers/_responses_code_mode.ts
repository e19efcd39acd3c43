/**
 * The Responses shapes of Codex's code mode (harnesses/native/CODE_MODE.md): tools in an
 * `additional_tools` input item grouped by namespace, freeform (`custom`) tools with a grammar,
 * `custom_tool_call` items and their outputs, and results of several text parts.
 */
import type { Block, ToolDeclaration } from "../model/message.ts";
import type { WireRequestSpec } from "../model/request_settings.ts";
import { newToolCall, rec, str, type ToolCallBlock } from "./_blocks.ts";

type Json = Record<string, unknown>;

/** One tool as Responses takes it: a `custom` tool for a grammar, else a function. */
export function wireTool(t: ToolDeclaration, toolFields: Json | undefined): Json {
  if (t.format) {
    return { type: "custom", name: t.name, description: t.description, format: t.format };
  }
  return {
    type: "function",
    name: t.name,
    description: t.description,
    parameters: t.parameters,
    strict: false,
    ...toolFields,
  };
}

/**
 * The classic `tools` list: each tool as `wireTool` has it, except that tools with a namespace
 * go in one `namespace` entry per namespace (Codex's multi_agent_v1), placed where its first
 * tool is, with its description from `toolNamespaces`.
 */
export function classicTools(tools: ToolDeclaration[], spec: WireRequestSpec): Json[] {
  const out: Json[] = [];
  const groups = new Map<string, Json[]>();
  for (const t of tools) {
    if (!t.namespace) {
      out.push(wireTool(t, spec.toolFields));
      continue;
    }
    let group = groups.get(t.namespace);
    if (!group) {
      group = [];
      groups.set(t.namespace, group);
      const named = spec.toolNamespaces?.find((n) => n.name === t.namespace);
      out.push({
        type: "namespace",
        name: t.namespace,
        description: named?.description ?? "",
        tools: group,
      });
    }
    group.push(wireTool(t, spec.toolFields));
  }
  return out;
}

/**
 * The `additional_tools` item: one namespace per entry of `toolNamespaces` that has tools, in
 * that order; a tool without a namespace goes in the first.
 */
export function additionalToolsItem(tools: ToolDeclaration[], spec: WireRequestSpec): Json {
  const namespaces = spec.toolNamespaces ?? [{ name: "functions", description: "" }];
  const first = namespaces[0]?.name;
  const groups = namespaces.map(({ name, description }) => ({
    type: "namespace",
    name,
    description,
    tools: tools.filter((t) => (t.namespace ?? first) === name)
      .map((t) => wireTool(t, spec.toolFields)),
  }));
  return {
    type: "additional_tools",
    role: "developer",
    tools: groups.filter((g) => g.tools.length),
  };
}

/** A tool call as an input item: `custom_tool_call` for a freeform tool, else a function call. */
export function callItem(block: ToolCallBlock, args: Json): Json {
  if (block.freeform) {
    return { type: "custom_tool_call", call_id: block.id, name: block.name, input: inputOf(block) };
  }
  const item: Json = {
    type: "function_call",
    call_id: block.id,
    name: block.name,
    arguments: JSON.stringify(args),
  };
  if (block.namespace) item.namespace = block.namespace;
  return item;
}

/**
 * A tool result's `output`: one text is a string; several texts (a code-mode result's status
 * line, then each text the script emitted) or images are a list of input parts.
 */
export function resultOutput(blocks: Block[], parts: (blocks: Block[]) => Json[]): unknown {
  const texts = blocks.filter((b) => b.type === "text");
  if (texts.length === blocks.length && texts.length <= 1) {
    return texts.map((b) => (b as { text: string }).text).join("");
  }
  return parts(blocks);
}

/** The output item type for a call: `custom_tool_call_output` answers a freeform call. */
export function outputType(freeform: boolean): string {
  return freeform ? "custom_tool_call_output" : "function_call_output";
}

/** A `custom_tool_call` output item as a tool-call block; `input` is its whole text. */
export function customCallBlock(item: Json, key: string): ToolCallBlock {
  const id = str(item.call_id) ?? str(item.id) ?? key;
  const block = newToolCall(id, str(item.name) ?? "");
  delete block.rawArgs;
  block.freeform = true;
  block.args = { input: str(item.input) ?? "" };
  return block;
}

/** Adds streamed input text to a freeform call; the `.done` item's whole input wins later. */
export function appendInput(block: Block | undefined, delta: string): boolean {
  if (block?.type !== "tool_call" || !block.freeform) return false;
  block.args = { input: inputOf(block) + delta };
  return true;
}

/** Sets the whole input of a freeform call from its `.done` item. */
export function settleInput(block: ToolCallBlock, item: Json): void {
  const input = str(item.input);
  if (input !== undefined) block.args = { input };
}

/** The namespace a function call named, kept unless it is the default one. */
export function callNamespace(item: Json): string | undefined {
  const ns = str(rec(item).namespace);
  return ns && ns !== "functions" ? ns : undefined;
}

function inputOf(block: ToolCallBlock): string {
  return str(rec(block.args).input) ?? "";
}
