import type { z } from "zod";
import { HarnessError, ToolError } from "../errors.ts";
import type { Capability } from "../tools/capability.ts";
import { capabilityById } from "../tools/registry.ts";
import { declaredProperties } from "./_check_tool.ts";
import { fillTemplate, type Lookup } from "./_template.ts";
import { FORMAT_DERIVED } from "./_formats.ts";
import type { Harness, HarnessTool, ToolRoute } from "./types.ts";

/** A model tool call matched to its harness tool and turned into capability input. */
export interface ResolvedCall {
  tool: HarnessTool;
  capability: Capability;
  /** Capability input, already validated by the capability's zod schema. */
  input: unknown;
}

/**
 * Matches a tool call to the harness tool of that name (or its route, when the call sets the
 * route's argument) and maps its wire arguments onto the capability's input. Throws ToolError, worded with wire names, for an unknown tool,
 * arguments that are not a JSON object, unexpected or missing arguments, and invalid values.
 */
export function resolveCall(
  h: Harness,
  call: { name: string; args: unknown; rawArgs?: string },
): ResolvedCall {
  const named = h.tools.find((t) => t.declaration.name === call.name);
  if (!named) {
    throw new ToolError(
      fillTemplate(h.unknownToolTemplate, (n) => n === "name" ? { value: call.name } : undefined),
      `Available tools: ${h.tools.map((t) => t.declaration.name).join(", ")}`,
    );
  }
  const name = named.declaration.name;
  const args = argsObject(name, call);
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
    const wireOf = new Map(
      Object.entries(tool.args).filter(([, f]) => f !== "").map(([w, f]) => [f, w]),
    );
    const problems = parsed.error.issues.map((i) => describeIssue(i, wireOf, raw));
    throw new ToolError(
      `Invalid arguments for "${name}": ${problems.join("; ")}`,
      schemaHint(tool),
    );
  }
  return { tool, capability, input: parsed.data };
}

/** A numeric wire value scaled by `scale`, then moved by `shift`; other values as given. */
function wireValue(tool: HarnessTool, wire: string, value: unknown): unknown {
  if (typeof value !== "number") return value;
  return value * (tool.scale[wire] ?? 1) + (tool.shift?.[wire] ?? 0);
}

/** Derived placeholders available to result templates, computed from the capability output. */
const DERIVED: Record<string, (o: Record<string, unknown>) => { value: unknown } | undefined> = {
  /** Vendor layouts: see `_formats.ts`. */
  ...FORMAT_DERIVED,
  /** Seconds with four decimals, from `durationMs`. */
  duration_s: (o) =>
    typeof o.durationMs === "number" ? { value: (o.durationMs / 1000).toFixed(4) } : undefined,
  /** Seconds, from `timeoutMs`, only when `timedOut` is true (the line is dropped otherwise). */
  timeout_s: (o) =>
    typeof o.timedOut === "boolean"
      ? { value: o.timedOut && typeof o.timeoutMs === "number" ? o.timeoutMs / 1000 : null }
      : undefined,
  /** One `A path` / `M path` / `D path` line per entry of `changes` (moves list the new path). */
  changed_files: (o) => Array.isArray(o.changes) ? { value: changedFiles(o.changes) } : undefined,
  /** `lines` as `<number>\t<line>` lines (`cat -n` style), numbered from `startLine` (or 1). */
  numbered_lines: (o) =>
    Array.isArray(o.lines) ? { value: numberedLines(o.lines, o.startLine) } : undefined,
  /** `lines` as `<number>: <line>` lines, numbered from `startLine` (or 1). */
  colon_numbered_lines: (o) =>
    Array.isArray(o.lines) ? { value: numberedLines(o.lines, o.startLine, ": ") } : undefined,
  /** How many entries `lines` has. */
  line_count: (o) => Array.isArray(o.lines) ? { value: o.lines.length } : undefined,
  /** Number of the last line in `lines`. */
  last_line: (o) =>
    Array.isArray(o.lines) ? { value: Number(o.startLine ?? 1) + o.lines.length - 1 } : undefined,
  /** `files`, one per line. */
  file_list: (o) => Array.isArray(o.files) ? { value: o.files.map(String).join("\n") } : undefined,
  /** How many entries of `lines` are matches rather than context (grep content mode). */
  match_count: (o) =>
    Array.isArray(o.lines) && o.mode !== undefined
      ? { value: (o.lines as GrepLike[]).filter((l) => l.match).length }
      : undefined,
  /** Grep matches grouped by file: `<path>:` then `  Line <n>: <text>` lines. */
  matches_by_file: (o) =>
    Array.isArray(o.lines) && o.mode !== undefined
      ? { value: matchesByFile(o.lines as GrepLike[]) }
      : undefined,
  /** Grep lines ripgrep style: `path:n:text` for matches, `path-n-text` for context lines. */
  grep_lines: (o) =>
    Array.isArray(o.lines) && o.mode !== undefined
      ? {
        value: (o.lines as GrepLike[]).map((l) =>
          `${l.path}${l.match ? ":" : "-"}${l.line}${l.match ? ":" : "-"}${l.text}`
        ).join("\n"),
      }
      : undefined,
  /** Grep counts, one `path:count` line per file (ripgrep's `--count`). */
  count_lines: (o) =>
    Array.isArray(o.counts)
      ? {
        value: (o.counts as Array<{ path: string; count: number }>).map((c) =>
          `${c.path}:${c.count}`
        ).join("\n"),
      }
      : undefined,
  /** `lines` joined as plain text, without numbers. */
  text: (o) => Array.isArray(o.lines) ? { value: o.lines.join("\n") } : undefined,
  /** A note on how to read on when a read stopped before the end (dropped at end of file). */
  more_lines_note: (o) => Array.isArray(o.lines) ? { value: moreLinesNote(o) } : undefined,
  /** `Command exited with code N` for a non-zero exit (dropped on success). */
  exit_note: (o) =>
    "exitCode" in o
      ? {
        value: o.exitCode === 0 || o.exitCode === null
          ? null
          : `Command exited with code ${o.exitCode}`,
      }
      : undefined,
};

interface GrepLike {
  path: string;
  line: number;
  text: string;
  match: boolean;
}

function matchesByFile(lines: GrepLike[]): string {
  const blocks: string[] = [];
  let current: string | undefined;
  for (const l of lines.filter((l) => l.match)) {
    if (l.path !== current) blocks.push(`${blocks.length ? "\n" : ""}${l.path}:`);
    current = l.path;
    blocks.push(`  Line ${l.line}: ${l.text}`);
  }
  return blocks.join("\n");
}

function moreLinesNote(o: Record<string, unknown>): string | null {
  if (o.endOfFile !== false || typeof o.totalLines !== "number") return null;
  const next = Number(o.startLine ?? 1) + (o.lines as unknown[]).length;
  const remaining = o.totalLines - next + 1;
  return `[${remaining} more lines in file. Use offset=${next} to continue.]`;
}

/**
 * `{if_<field>}` is empty when the field is truthy and drops its line otherwise; `{unless_<field>}`
 * is the reverse. They let a template choose between lines, such as an end-of-file note.
 */
function conditional(o: Record<string, unknown>, name: string): { value: unknown } | undefined {
  const match = /^(if|unless)_(.+)$/.exec(name);
  const hit = match ? fieldOf(o, match[2]) : undefined;
  if (!match || !hit) return undefined;
  return { value: isPresent(hit.value) === (match[1] === "if") ? "" : null };
}

function routeApplies(route: ToolRoute, args: Record<string, unknown>): boolean {
  const value = args[route.when];
  if (!route.matches) return isPresent(value);
  return typeof value === "string" && route.matches.test(value);
}

/** Truthy, and not an empty string or list: what `{if_<field>}` tests. */
function isPresent(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
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
  const lookup: Lookup = (name) => {
    const hit = fieldOf(o, name) ?? DERIVED[name]?.(o) ?? conditional(o, name);
    if (name === "output" && hit?.value === "" && emptyOutput !== undefined) {
      return { value: emptyOutput };
    }
    return hit;
  };
  return fillTemplate(failed ?? tool.result.template, lookup);
}

/**
 * Whether a capability result is a failure the wire should flag: any of the tool's `errorIf`
 * fields is present (truthy, not an empty string or list), as `{if_<field>}` tests it.
 */
export function resultIsError(tool: HarnessTool, output: unknown): boolean {
  const o: Record<string, unknown> = isObject(output) ? output : { output };
  return (tool.result.errorIf ?? []).some((name) => isPresent(fieldOf(o, name)?.value));
}

/** The model-facing text of a failed call, from the harness's error template. */
export function renderToolError(h: Harness, err: ToolError): string {
  return fillTemplate(h.errorTemplate, (name) => {
    if (name === "message") return { value: err.message };
    if (name === "hint") return { value: err.hint || undefined };
    return undefined;
  });
}

function argsObject(
  name: string,
  call: { args: unknown; rawArgs?: string },
): Record<string, unknown> {
  let args = call.args;
  if (!isObject(args)) {
    const text = typeof args === "string" ? args : call.rawArgs;
    if (text !== undefined && (args === undefined || args === null || typeof args === "string")) {
      if (text.trim() === "") return {};
      try {
        args = JSON.parse(text);
      } catch {
        const prefix = text.length > 60 ? `${text.slice(0, 60)}…` : text;
        throw new ToolError(
          `Invalid arguments for "${name}": the arguments are not valid JSON: ${
            JSON.stringify(prefix)
          }`,
          "Send the arguments as one JSON object",
        );
      }
    } else if (args === undefined || args === null) return {};
  }
  if (!isObject(args)) {
    const kind = Array.isArray(args) ? "an array" : args === null ? "null" : `a ${typeof args}`;
    throw new ToolError(
      `Invalid arguments for "${name}": expected a JSON object, got ${kind}`,
      "Send the arguments as one JSON object",
    );
  }
  return args;
}

function checkWireArgs(tool: HarnessTool, args: Record<string, unknown>): void {
  const name = tool.declaration.name;
  const declared = Object.keys(declaredProperties(tool));
  if (tool.declaration.parameters.additionalProperties === false) {
    const extra = Object.keys(args).filter((k) => !declared.includes(k));
    if (extra.length) {
      throw new ToolError(
        `Invalid arguments for "${name}": unexpected argument${extra.length > 1 ? "s" : ""} ${
          quoteList(extra)
        }`,
        `Allowed arguments: ${declared.join(", ")}`,
      );
    }
  }
  const props = declaredProperties(tool);
  for (const [wire, field] of Object.entries(tool.args)) {
    const problem = field === "" && args[wire] != null
      ? jsonTypeProblem(props[wire], args[wire])
      : "";
    if (problem) {
      throw new ToolError(
        `Invalid arguments for "${name}": "${wire}": ${problem}`,
        schemaHint(tool),
      );
    }
  }
  const required = tool.declaration.parameters.required;
  const missing = Array.isArray(required)
    ? required.filter((k) => args[k] === undefined || args[k] === null)
    : [];
  if (missing.length) {
    throw new ToolError(
      `Invalid arguments for "${name}": missing required argument${missing.length > 1 ? "s" : ""} ${
        quoteList(missing)
      }`,
      schemaHint(tool),
    );
  }
}

function describeIssue(
  issue: z.core.$ZodIssue,
  wireOf: Map<string, string>,
  raw: Record<string, unknown>,
): string {
  const [field, ...rest] = issue.path.map(String);
  const wire = field === undefined ? undefined : wireOf.get(field);
  const path = (wire ?? (field === undefined ? "" : `fixed argument ${field}`)) +
    rest.map((p) => /^\d+$/.test(p) ? `[${p}]` : `.${p}`).join("");
  if (
    issue.code === "invalid_type" && rest.length === 0 && field !== undefined &&
    raw[field] === undefined
  ) {
    return `missing required argument "${path}"`;
  }
  const message = issue.message.replace(/^Invalid input: /, "");
  return path ? `"${path}": ${message}` : message;
}

/**
 * Checks the declared JSON-schema `type` and `enum` of an argument the capability ignores (the
 * capability's zod schema checks the others), so a bad value is reported either way.
 */
function jsonTypeProblem(schema: unknown, value: unknown): string {
  if (!isObject(schema)) return "";
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    return `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join("|")}`;
  }
  const type = schema.type;
  if (typeof type !== "string") return "";
  const actual = Array.isArray(value) ? "array" : typeof value;
  const ok = type === "integer" ? Number.isInteger(value) : actual === type;
  return ok ? "" : `expected ${type}, received ${actual}`;
}

function schemaHint(tool: HarnessTool): string {
  const required = tool.declaration.parameters.required;
  const req = Array.isArray(required) && required.length
    ? `required: ${required.join(", ")}; `
    : "";
  return `Arguments of "${tool.declaration.name}": ${req}all: ${
    Object.keys(declaredProperties(tool)).join(", ")
  }`;
}

function changedFiles(changes: unknown[]): string {
  const letter: Record<string, string> = { add: "A", update: "M", move: "M", delete: "D" };
  return changes.filter(isObject).map((c) =>
    `${letter[String(c.kind)] ?? "M"} ${String(c.movePath ?? c.path)}`
  ).join("\n");
}

function numberedLines(lines: unknown[], start: unknown, separator = "\t"): string {
  const first = typeof start === "number" ? start : 1;
  return lines.map((line, i) => `${first + i}${separator}${String(line)}`).join("\n");
}

function fieldOf(o: Record<string, unknown>, name: string): { value: unknown } | undefined {
  if (Object.hasOwn(o, name)) return { value: o[name] };
  const camel = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (camel !== name && Object.hasOwn(o, camel)) return { value: o[camel] };
  return undefined;
}

function quoteList(names: string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
