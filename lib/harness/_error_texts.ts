import { ToolError } from "../errors.ts";
import { CodedToolError, type WireNames } from "../tools/_coded_error.ts";
import type { Capability } from "../tools/capability.ts";
import type { ArgumentsError } from "./_arguments.ts";
import { declaredProperties } from "./_check_tool.ts";
import { outputLookup } from "./_derived.ts";
import { fillTemplate } from "./_template.ts";
import type { Harness, HarnessTool } from "./types.ts";

/**
 * A failed call whose message is already the whole text the model sees, in the harness's
 * vendor's words: the error template does not wrap it. The hint is kept for our own events.
 */
export class RenderedToolError extends ToolError {
  constructor(text: string, hint?: string) {
    super(text, hint);
    this.name = "RenderedToolError";
  }
}

/** A call to a tool the harness does not have (eval counts these apart from argument errors). */
export class UnknownToolError extends RenderedToolError {}

/** Fills a vendor text's `{placeholders}` (and `{if_x}` / `{unless_x}`) from `fields`. */
function fillFields(template: string, fields: Record<string, unknown>): string {
  return fillTemplate(template, outputLookup(fields));
}

/** A call to a tool the harness lacks, in its `unknown_tool_template`. */
export function unknownToolError(
  h: Harness,
  name: string,
  available: readonly string[],
  hint?: string,
): RenderedToolError {
  const text = fillFields(h.unknownToolTemplate, { name, available: available.join(", ") });
  return new UnknownToolError(text, hint);
}

/** Bad arguments in the harness's `invalid_arguments` texts; our wording when it has none. */
export function wordArguments(h: Harness, err: ArgumentsError): ToolError {
  const texts = h.invalidArguments;
  if (!texts) return err;
  const base = { name: err.tool, message: err.message, hint: err.hint ?? "" };
  if (err.notJson) {
    if (texts.notJson === undefined) return err;
    return new RenderedToolError(
      fillFields(texts.notJson, { ...base, problem: err.problems }),
      err.hint,
    );
  }
  const issues = err.issues.map((issue) =>
    fillFields(texts[issue.kind] ?? texts.issue ?? "{text}", { ...issue })
  );
  return new RenderedToolError(
    fillFields(texts.template, {
      ...base,
      problems: err.problems,
      issues: issues.join("\n"),
      several: err.issues.length > 1,
      argumentsJson: JSON.stringify(err.received ?? {}, null, 2),
    }),
    err.hint,
  );
}

/**
 * `cap` with its coded failures worded for `tool`: the tool's `errors` text for the code when
 * it has one, else our wording with the harness's parameter names.
 */
export function wordedFor(tool: HarnessTool, cap: Capability): Capability {
  const names = wireNames(tool, cap);
  return {
    ...cap,
    async run(input, ctx) {
      try {
        return await cap.run(input, ctx);
      } catch (err) {
        if (!(err instanceof CodedToolError)) throw err;
        const text = tool.errors?.[err.code];
        if (text !== undefined) throw new RenderedToolError(fillFields(text, err.fields), err.hint);
        const own = err.describe(names);
        throw new ToolError(own.message, own.hint);
      }
    },
  };
}

/**
 * How `tool` names capability fields on its wire: the wire argument mapped to the field, and
 * for a nested key the property of that argument's schema spelt as the key or one of the
 * capability's `spellings` for it (undefined when the schema has other properties only).
 */
export function wireNames(tool: HarnessTool, cap: Capability): WireNames {
  return (field, nested) => {
    const wire = Object.entries(tool.args).find(([, f]) => f === field)?.[0];
    if (wire === undefined || nested === undefined) return wire;
    const keys = propertyNames(declaredProperties(tool)[wire], 3);
    if (keys.size === 0) return nested;
    return [nested, ...(cap.spellings?.[nested] ?? [])].find((k) => keys.has(k));
  };
}

/** Property names of an object schema, of its array items, or of any `anyOf`/`oneOf` branch. */
function propertyNames(schema: unknown, depth: number): Set<string> {
  const out = new Set<string>();
  if (depth === 0 || typeof schema !== "object" || schema === null) return out;
  const s = schema as Record<string, unknown>;
  if (typeof s.properties === "object" && s.properties !== null) {
    for (const key of Object.keys(s.properties)) out.add(key);
  }
  for (const branch of [s.items, ...asList(s.anyOf), ...asList(s.oneOf)]) {
    for (const key of propertyNames(branch, depth - 1)) out.add(key);
  }
  return out;
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
