/**
 * The list of nested tools that code mode's `exec` description ends with: for each tool its
 * description and a TypeScript declaration of its method on the global `tools` object, as
 * Codex's exec description has them (harnesses/native/CODE_MODE.md).
 */
import type { HarnessTool } from "./types.ts";

type Schema = Record<string, unknown>;

/** The reference section for `tools` (the nested ones, in order). */
export function nestedToolReference(
  tools: HarnessTool[],
  results: Record<string, Record<string, string>>,
): string {
  return tools.map((t) => {
    const { name, description, parameters, format } = t.declaration;
    const js = name.replace(/[^A-Za-z0-9_$]/g, "_");
    const input = format ? "input: string" : `args: ${tsType(parameters, "")}`;
    const shape = results[name];
    const output = shape
      ? `{ ${Object.keys(shape).map((k) => `${k}: unknown;`).join(" ")} }`
      : "string";
    const declaration = `declare const tools: { ${js}(${input}): Promise<${output}>; };`;
    return `### \`${js}\`\n${description.trim()}\n\`\`\`ts\n${declaration}\n\`\`\``;
  }).join("\n\n");
}

/** A JSON schema as a TypeScript type, object members one per line with their descriptions. */
function tsType(schema: Schema, indent: string): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return `Array<${tsType((schema.items ?? {}) as Schema, indent)}>`;
    case "object":
      return objectType(schema, indent);
    default:
      return "unknown";
  }
}

function objectType(schema: Schema, indent: string): string {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const inner = indent + "  ";
  const members = Object.entries(props).map(([key, prop]) => {
    const note = typeof prop.description === "string"
      ? `${inner}// ${oneLine(prop.description)}\n`
      : "";
    const optional = required.includes(key) ? "" : "?";
    return `${note}${inner}${key}${optional}: ${tsType(prop, inner)};`;
  });
  return members.length ? `{\n${members.join("\n")}\n${indent}}` : "{}";
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
