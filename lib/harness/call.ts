import { HarnessError, type ToolError } from "../errors.ts";
import type { Capability } from "../tools/capability.ts";
import { capabilityById } from "../tools/registry.ts";
import { argsObject, ArgumentsError, capabilityIssues, checkWireArgs } from "./_arguments.ts";
import { fieldOf, isPresent, outputLookup } from "./_derived.ts";
import {
  RenderedToolError,
  UnknownToolError,
  unknownToolError,
  wireNames,
  wordArguments,
  wordedFor,
} from "./_error_texts.ts";
import { fillTemplate, type Lookup } from "./_template.ts";
import type { Harness, HarnessTool, ToolRoute } from "./types.ts";

export { UnknownToolError };

/** A model tool call matched to its harness tool and turned into capability input. */
export interface ResolvedCall {
  tool: HarnessTool;
  /** The capability, its coded failures worded in the tool's `errors` texts. */
  capability: Capability;
  /** Capability input, already validated by the capability's zod schema. */
  input: unknown;
}

/**
 * Matches a tool call to the harness tool of that name (or its route, when the call sets the
 * route's argument) and maps its wire arguments onto the capability's input. Throws ToolError,
 * worded with wire names (or the harness's own texts, as a RenderedToolError), for an unknown
 * tool, arguments that are not a JSON object, unexpected or missing arguments, and bad values.
 */
export function resolveCall(
  h: Harness,
  call: { name: string; args: unknown; rawArgs?: string },
): ResolvedCall {
  const named = h.tools.find((t) => t.declaration.name === call.name);
  if (!named) {
    const names = h.tools.map((t) => t.declaration.name);
    throw unknownToolError(h, call.name, names, `Available tools: ${names.join(", ")}`);
  }
  try {
    return resolveArgs(h, named, call);
  } catch (err) {
    throw err instanceof ArgumentsError ? wordArguments(h, err) : err;
  }
}

function resolveArgs(
  h: Harness,
  named: HarnessTool,
  call: { name: string; args: unknown; rawArgs?: string },
): ResolvedCall {
  const args = argsObject(named.declaration.name, call);
  const tool = named.route && routeApplies(named.route, args) ? named.route.tool : named;
  const capability = capabilityById(tool.capability);
  if (!capability) {
    throw new HarnessError(
      `Harness "${h.id}" maps "${call.name}" to unknown capability "${tool.capability}"`,
    );
  }
  checkWireArgs(tool, args);
  const raw: Record<string, unknown> = {};
  for (const [wire, field] of Object.entries(tool.args)) {
    const value = args[wire];
    if (field !== "" && value !== undefined && value !== null) {
      raw[field] = wireValue(tool, wire, value);
    }
  }
  Object.assign(raw, tool.fixedArgs);
  const parsed = capability.input.safeParse(raw);
  if (!parsed.success) {
    throw capabilityIssues(tool, parsed.error.issues, raw, args, wireNames(tool, capability));
  }
  return { tool, capability: wordedFor(tool, capability), input: parsed.data };
}

/** A numeric wire value scaled by `scale`, then moved by `shift`; other values as given. */
function wireValue(tool: HarnessTool, wire: string, value: unknown): unknown {
  if (typeof value !== "number") return value;
  return value * (tool.scale[wire] ?? 1) + (tool.shift?.[wire] ?? 0);
}

function routeApplies(route: ToolRoute, args: Record<string, unknown>): boolean {
  const value = args[route.when];
  if (!route.matches) return isPresent(value);
  return typeof value === "string" && route.matches.test(value);
}

/**
 * The model-facing text of a capability result. `{field}` reads an output field, by its own
 * name or snake_case of a camelCase name (`{exit_code}` reads `exitCode`), or a derived value
 * listed in DERIVED. A line with a null value is left out; an empty `{output}` becomes
 * `emptyOutput` when the tool sets one. An error result (see resultIsError) is rendered with
 * `failedTemplate` instead, when the tool sets one, and never with `emptyOutput`.
 */
export function renderResult(tool: HarnessTool, output: unknown): string {
  const o: Record<string, unknown> = isObject(output) ? output : { output };
  const failed = resultIsError(tool, output) ? tool.result.failedTemplate : undefined;
  const emptyOutput = failed === undefined ? tool.result.emptyOutput : undefined;
  const fields = outputLookup(o);
  const lookup: Lookup = (name) => {
    const hit = fields(name);
    if (name === "output" && hit?.value === "" && emptyOutput !== undefined) {
      return { value: emptyOutput };
    }
    return hit;
  };
  return fillTemplate(failed ?? tool.result.template, lookup);
}

/**
 * The result as its text parts: the rendered template, then (with `result.parts`) each string of
 * that output field, then the `last` template when it renders to something.
 */
export function renderResultParts(tool: HarnessTool, output: unknown): string[] {
  const first = renderResult(tool, output);
  const parts = tool.result.parts;
  if (!parts || !isObject(output)) return [first];
  const items = output[parts.field] ?? output[camel(parts.field)];
  const texts = Array.isArray(items) ? items.map(String) : [];
  const last = parts.last
    ? renderResult({ ...tool, result: { template: parts.last } }, output)
    : "";
  return [first, ...texts, ...(last ? [last] : [])];
}

function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Whether a capability result is a failure the wire should flag: any of the tool's `errorIf`
 * fields is present (truthy, not an empty string or list), as `{if_<field>}` tests it.
 */
export function resultIsError(tool: HarnessTool, output: unknown): boolean {
  const o: Record<string, unknown> = isObject(output) ? output : { output };
  return (tool.result.errorIf ?? []).some((name) => isPresent(fieldOf(o, name)?.value));
}

/**
 * The model-facing text of a failed call: a vendor text as it stands (RenderedToolError), else
 * our message and hint in the harness's error template, whose `{if_hint}` and `{unless_hint}`
 * keep a line only with a hint or only without one.
 */
export function renderToolError(h: Harness, err: ToolError): string {
  if (err instanceof RenderedToolError) return err.message;
  const hint = err.hint || undefined;
  return fillTemplate(h.errorTemplate, (name) => {
    if (name === "message") return { value: err.message };
    if (name === "hint") return { value: hint };
    if (name === "if_hint") return { value: hint === undefined ? undefined : "" };
    if (name === "unless_hint") return { value: hint === undefined ? "" : undefined };
    return undefined;
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
