/** Checks that the tools a request advertises are well-formed for its wire format. */
import type { Wire } from "./plan.ts";

/** Tool names found and problems seen in a request's `tools`. */
export interface ToolsSeen {
  names: string[];
  problems: string[];
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Anthropic's versioned built-in client tools, e.g. `text_editor_20250728`. */
const ANTHROPIC_BUILT_IN = /^[a-z_]+_\d{8}$/;

/** Reads `tools` for `wire`; an absent `tools` field is fine, anything but an array is not. */
export function checkTools(wire: Wire, tools: unknown): ToolsSeen {
  if (wire === "gemini") return checkGeminiTools(tools);
  const seen: ToolsSeen = { names: [], problems: [] };
  if (tools === undefined) return seen;
  if (!Array.isArray(tools)) {
    seen.problems.push(`"tools" must be an array, got ${JSON.stringify(tools)}`);
    return seen;
  }
  tools.forEach((tool, i) => {
    const where = `tools[${i}]`;
    if (wire === "responses" && isObject(tool) && tool.type === "namespace") {
      return checkNamespace(tool, where, seen);
    }
    const problems = isObject(tool) ? CHECKS[wire](tool) : ["must be an object"];
    const name = isObject(tool) ? toolName(wire, tool) : undefined;
    if (name !== undefined) {
      if (seen.names.includes(name)) problems.push(`repeats the tool name "${name}"`);
      seen.names.push(name);
    }
    for (const problem of problems) seen.problems.push(`${where} ${problem}`);
  });
  return seen;
}

/**
 * A Responses `namespace` entry (Codex's multi_agent_v1): a name, a description and its own
 * `tools` of functions, each checked as a top-level one and named by its own name.
 */
function checkNamespace(tool: Record<string, unknown>, where: string, seen: ToolsSeen): void {
  seen.problems.push(...nameProblems(tool.name).map((p) => `${where} ${p}`));
  if (typeof tool.description !== "string") {
    seen.problems.push(`${where} must have a string "description"`);
  }
  if (!Array.isArray(tool.tools) || tool.tools.length === 0) {
    seen.problems.push(`${where} must have a non-empty "tools" array`);
    return;
  }
  tool.tools.forEach((inner, j) => {
    const at = `${where}.tools[${j}]`;
    const problems = isObject(inner) ? CHECKS.responses(inner) : ["must be an object"];
    if (isObject(inner) && typeof inner.name === "string") {
      if (seen.names.includes(inner.name)) problems.push(`repeats the tool name "${inner.name}"`);
      seen.names.push(inner.name);
    }
    for (const problem of problems) seen.problems.push(`${at} ${problem}`);
  });
}

/** The keys OpenAI's hosted `web_search` tool takes besides its type. */
const HOSTED_SEARCH_KEYS = [
  "external_web_access",
  "filters",
  "user_location",
  "search_context_size",
];

/** OpenAI's hosted `web_search` tool: no name or schema; `external_web_access` a boolean. */
function hostedSearchProblems(tool: Record<string, unknown>): string[] {
  const extra = Object.keys(tool).filter((k) => k !== "type" && !HOSTED_SEARCH_KEYS.includes(k));
  const problems = extra.map((k) =>
    `has ${show(k)}, which the hosted web_search tool does not take`
  );
  const access = tool.external_web_access;
  if (access !== undefined && typeof access !== "boolean") {
    problems.push(`has external_web_access ${show(access)}; it must be true or false`);
  }
  return problems;
}

const CHECKS: Record<Exclude<Wire, "gemini">, (tool: Record<string, unknown>) => string[]> = {
  chat(tool) {
    if (tool.type !== "function") return [`must have type "function", got ${show(tool.type)}`];
    const fn = tool.function;
    if (!isObject(fn)) return ['must have a "function" object with name, description, parameters'];
    return [...nameProblems(fn.name), ...descriptionProblems(fn.description)].concat(
      schemaProblems("function.parameters", fn.parameters),
    );
  },
  responses(tool) {
    if (tool.type === "custom") return nameProblems(tool.name);
    if (tool.type === "web_search") return hostedSearchProblems(tool);
    if (tool.type !== "function") {
      return [`must have type "function" or "custom", got ${show(tool.type)}`];
    }
    if ("function" in tool) {
      return [
        'has a nested "function" object; the Responses API wants name and parameters at top level',
      ];
    }
    const problems = nameProblems(tool.name);
    if (tool.description !== undefined) problems.push(...descriptionProblems(tool.description));
    return problems.concat(schemaProblems("parameters", tool.parameters));
  },
  messages(tool) {
    if ("function" in tool || "parameters" in tool) {
      return ["uses OpenAI fields; the Messages API wants name, description and input_schema"];
    }
    if (typeof tool.type === "string" && tool.type !== "custom") {
      if (!ANTHROPIC_BUILT_IN.test(tool.type)) {
        return [
          `has type ${show(tool.type)}, which is neither "custom" nor a built-in tool version`,
        ];
      }
      return nameProblems(tool.name);
    }
    return [...nameProblems(tool.name), ...descriptionProblems(tool.description)].concat(
      schemaProblems("input_schema", tool.input_schema),
    );
  },
};

/**
 * Gemini's `tools`: objects each holding a `functionDeclarations` list of {name, description,
 * parametersJsonSchema} (the OpenAPI-subset `parameters` is accepted too).
 */
export function checkGeminiTools(tools: unknown): ToolsSeen {
  const seen: ToolsSeen = { names: [], problems: [] };
  if (tools === undefined) return seen;
  if (!Array.isArray(tools)) {
    seen.problems.push(`"tools" must be an array, got ${JSON.stringify(tools)}`);
    return seen;
  }
  tools.forEach((tool, i) => {
    const list = isObject(tool) ? tool.functionDeclarations : undefined;
    if (!Array.isArray(list)) {
      seen.problems.push(`tools[${i}] must have a "functionDeclarations" array`);
      return;
    }
    list.forEach((decl, j) => {
      const where = `tools[${i}].functionDeclarations[${j}]`;
      if (!isObject(decl)) return seen.problems.push(`${where} must be an object`);
      const problems = [...nameProblems(decl.name), ...descriptionProblems(decl.description)];
      const field = "parametersJsonSchema" in decl ? "parametersJsonSchema" : "parameters";
      problems.push(...schemaProblems(field, decl[field]));
      if (typeof decl.name === "string") {
        if (seen.names.includes(decl.name)) problems.push(`repeats the tool name "${decl.name}"`);
        seen.names.push(decl.name);
      }
      for (const problem of problems) seen.problems.push(`${where} ${problem}`);
    });
  });
  return seen;
}

function toolName(wire: Wire, tool: Record<string, unknown>): string | undefined {
  const name = wire === "chat" && isObject(tool.function) ? tool.function.name : tool.name;
  return typeof name === "string" ? name : undefined;
}

function nameProblems(name: unknown): string[] {
  if (typeof name !== "string") return [`must have a string name, got ${show(name)}`];
  return NAME.test(name) ? [] : [`has name "${name}", which does not match ${NAME}`];
}

function descriptionProblems(description: unknown): string[] {
  return typeof description === "string"
    ? []
    : [`must have a string description, got ${show(description)}`];
}

function schemaProblems(field: string, schema: unknown): string[] {
  if (!isObject(schema)) return [`must have a JSON schema object in "${field}"`];
  if (schema.type !== "object") {
    return [`must have "${field}.type" equal to "object", got ${show(schema.type)}`];
  }
  return [];
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

/** True for plain JSON objects (not arrays or null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
