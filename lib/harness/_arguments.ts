import type * as z from "zod";
import { ToolError } from "../errors.ts";
import type { WireNames } from "../tools/_coded_error.ts";
import { declaredProperties } from "./_check_tool.ts";
import type { HarnessTool } from "./types.ts";

/** One thing wrong with a call's arguments, by wire name. */
export interface ArgumentIssue {
  kind: "missing" | "unexpected" | "invalid";
  /** The wire parameter, with nested keys (`edits[0].oldText`); "" for the whole object. */
  param: string;
  /** What is wrong, without the parameter's name: `expected string, received number`. */
  problem: string;
  /** Our sentence for it, naming the parameter: `missing required argument "path"`. */
  text: string;
}

/**
 * Arguments a call cannot run with. The message and hint are our wording; `issues` lists every
 * problem found, for a harness that words them its vendor's way, and `notJson` marks arguments
 * that are not a JSON object at all.
 */
export class ArgumentsError extends ToolError {
  readonly tool: string;
  readonly issues: ArgumentIssue[];
  readonly notJson: boolean;
  /** The arguments as received, when they were a JSON object. */
  readonly received?: Record<string, unknown>;

  constructor(
    tool: string,
    opts: {
      problems: string;
      hint: string;
      issues: ArgumentIssue[];
      notJson?: boolean;
      received?: Record<string, unknown>;
    },
  ) {
    super(`Invalid arguments for "${tool}": ${opts.problems}`, opts.hint);
    this.tool = tool;
    this.issues = opts.issues;
    this.notJson = opts.notJson ?? false;
    this.received = opts.received;
  }

  /** The message after `Invalid arguments for "<tool>": `. */
  get problems(): string {
    return this.message.slice(`Invalid arguments for "${this.tool}": `.length);
  }
}

const SEND_OBJECT = "Send the arguments as one JSON object";

/** The call's arguments as an object: parsed from text when needed; none is `{}`. */
export function argsObject(
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
        throw notJson(name, `the arguments are not valid JSON: ${JSON.stringify(prefix)}`);
      }
    } else if (args === undefined || args === null) return {};
  }
  if (!isObject(args)) {
    const kind = Array.isArray(args) ? "an array" : args === null ? "null" : `a ${typeof args}`;
    throw notJson(name, `expected a JSON object, got ${kind}`);
  }
  return args;
}

function notJson(name: string, problem: string): ArgumentsError {
  const issues: ArgumentIssue[] = [{ kind: "invalid", param: "", problem, text: problem }];
  return new ArgumentsError(name, { problems: problem, hint: SEND_OBJECT, issues, notJson: true });
}

/**
 * Checks the arguments against the declaration: no undeclared ones when it says
 * `additionalProperties: false`, declared types of the ones the capability ignores, and the
 * required ones. Every problem is an issue; the message names the first kind found.
 */
export function checkWireArgs(tool: HarnessTool, args: Record<string, unknown>): void {
  const name = tool.declaration.name;
  const props = declaredProperties(tool);
  const declared = Object.keys(props);
  const extra = tool.declaration.parameters.additionalProperties === false
    ? Object.keys(args).filter((k) => !declared.includes(k))
    : [];
  const typeIssues = Object.entries(tool.args).flatMap(([wire, field]) => {
    const problem = field === "" && args[wire] != null
      ? jsonTypeProblem(props[wire], args[wire])
      : "";
    return problem ? [invalid(wire, problem)] : [];
  });
  const required = tool.declaration.parameters.required;
  const missing = Array.isArray(required)
    ? required.filter((k) => args[k] === undefined || args[k] === null)
    : [];
  const issues: ArgumentIssue[] = [
    ...extra.map((p): ArgumentIssue => ({
      kind: "unexpected",
      param: p,
      problem: "unexpected argument",
      text: `unexpected argument "${p}"`,
    })),
    ...typeIssues,
    ...missing.map(missingIssue),
  ];
  if (!issues.length) return;
  const plural = (list: string[]) => list.length > 1 ? "s" : "";
  const [problems, hint] = extra.length
    ? [
      `unexpected argument${plural(extra)} ${quoteList(extra)}`,
      `Allowed arguments: ${declared.join(", ")}`,
    ]
    : typeIssues.length
    ? [typeIssues[0].text, schemaHint(tool)]
    : [`missing required argument${plural(missing)} ${quoteList(missing)}`, schemaHint(tool)];
  throw new ArgumentsError(name, { problems, hint, issues, received: args });
}

/** The capability's own validation issues, by wire name (`names` words nested keys). */
export function capabilityIssues(
  tool: HarnessTool,
  zodIssues: readonly z.core.$ZodIssue[],
  raw: Record<string, unknown>,
  args: Record<string, unknown>,
  names: WireNames,
): ArgumentsError {
  const issues = zodIssues.map((issue) => describeIssue(issue, raw, names));
  return new ArgumentsError(tool.declaration.name, {
    problems: issues.map((i) => i.text).join("; "),
    hint: schemaHint(tool),
    issues,
    received: args,
  });
}

function describeIssue(
  issue: z.core.$ZodIssue,
  raw: Record<string, unknown>,
  names: WireNames,
): ArgumentIssue {
  const [field, ...rest] = issue.path.map(String);
  const wire = field === undefined ? undefined : names(field);
  const nested = rest.map((p) =>
    /^\d+$/.test(p) ? `[${p}]` : `.${(field !== undefined && names(field, p)) || p}`
  );
  const param = (wire ?? (field === undefined ? "" : `fixed argument ${field}`)) + nested.join("");
  if (
    issue.code === "invalid_type" && rest.length === 0 && field !== undefined &&
    raw[field] === undefined
  ) {
    return missingIssue(param);
  }
  const message = issue.message.replace(/^Invalid input: /, "");
  return param
    ? invalid(param, message)
    : { kind: "invalid", param, problem: message, text: message };
}

function missingIssue(param: string): ArgumentIssue {
  return {
    kind: "missing",
    param,
    problem: "missing required argument",
    text: `missing required argument "${param}"`,
  };
}

function invalid(param: string, problem: string): ArgumentIssue {
  return { kind: "invalid", param, problem, text: `"${param}": ${problem}` };
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

function quoteList(names: string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
