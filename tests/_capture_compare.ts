/**
 * Compares a harness's tool schemas with a capture of the vendor's (reference/captures). Only
 * what the model is tuned on counts: parameter names, types, required lists, enums and consts,
 * nested properties and items, and anyOf/oneOf/allOf branches. Descriptions are ignored (the
 * captures hold only their lengths), and so are bounds, defaults and `$schema`.
 */

type Json = Record<string, unknown>;

/** One row of the comparison: a capture, the harness that emulates it, and how. */
export interface CaptureRow {
  capture: string;
  harness: string;
  /**
   * The session the capture's tool set is compared in: `changes_allowed: false` is a headless
   * run where nobody could approve a change (the harness's `when = "changes_allowed"` tools are
   * left out, as Gemini CLI leaves out its tools that need approval). Default: every tool.
   */
  changesAllowed?: boolean;
  /** Differences explained in the harness.toml, as `tool.path: what` lines of `schemaDiff`. */
  allowed?: string[];
  /**
   * Compared in Codex's code mode: the tools sent in the `additional_tools` item, named
   * `namespace.name` as the capture names them (nested tools are not sent).
   */
  codeMode?: boolean;
}

/**
 * Which capture each harness emulates. qwen-code is held to the full (`--yolo`) tool set;
 * gemini-cli to both of Gemini CLI's: `--yolo` (15) and headless with approvals on (8).
 */
export const CAPTURE_TABLE: ReadonlyArray<CaptureRow> = [
  { capture: "claude.tools.json", harness: "claude-code" },
  {
    capture: "qwen.yolo.tools.json",
    harness: "qwen-code",
    // Qwen Code sends get_goal and list_agents with no schema at all; a declaration here always
    // has one (harness.toml).
    allowed: [
      'get_goal.(root): type is "object", capture has (none)',
      'list_agents.(root): type is "object", capture has (none)',
    ],
  },
  { capture: "opencode.tools.json", harness: "opencode" },
  // No Kimi capture exists: the reference's table of Kimi Code's 25 tools (harnesses.md §7).
  { capture: "kimi-code.reference.tools.json", harness: "kimi-code" },
  // Nor of Kimi CLI: the reference's table of its 16 registered tools plus SearchWeb (A.1).
  { capture: "kimi-cli.reference.tools.json", harness: "kimi-cli" },
  { capture: "pi.openai.tools.json", harness: "pi" },
  { capture: "codex.gpt5codex.tools.json", harness: "native" },
  { capture: "codex.tools.json", harness: "native", codeMode: true },
  {
    capture: "gemini.yolo.tools.json",
    harness: "gemini-cli",
    // The enum lists Gemini CLI's own built-in skills; ours are the session's (harness.toml).
    allowed: [
      'activate_skill.name: enum is (none), capture has ["skill-creator","antigravity-support"]',
    ],
  },
  { capture: "gemini.tools.json", harness: "gemini-cli", changesAllowed: false },
];

/** One tool as a capture holds it. */
export interface CapturedTool {
  name: string;
  /** Anthropic captures. */
  input_schema?: Json;
  /** OpenAI captures. */
  parameters?: Json;
  /** Gemini captures. */
  parametersJsonSchema?: Json;
}

/** The parts of a capture file the comparison reads. */
export interface CaptureFile {
  tools: CapturedTool[];
  annotations?: { deferred_tools_named_in_context?: string[] };
}

/** The input schema of a captured tool; `{}` when the capture sent none. */
export function capturedSchema(tool: CapturedTool): Json {
  return tool.input_schema ?? tool.parameters ?? tool.parametersJsonSchema ?? {};
}

/** Every difference between `ours` and `theirs`, one `path: what` line each; [] when equal. */
export function schemaDiff(ours: unknown, theirs: unknown, path = ""): string[] {
  const a = isObject(ours) ? ours : {};
  const b = isObject(theirs) ? theirs : {};
  const at = path || "(root)";
  const out: string[] = [];
  for (const key of ["type", "enum", "const"]) {
    if (!sameValue(a[key], b[key])) {
      out.push(`${at}: ${key} is ${show(a[key])}, capture has ${show(b[key])}`);
    }
  }
  if (!sameValue(sortedList(a.required), sortedList(b.required))) {
    out.push(`${at}: required is ${show(a.required)}, capture has ${show(b.required)}`);
  }
  const pa = isObject(a.properties) ? a.properties : {};
  const pb = isObject(b.properties) ? b.properties : {};
  for (const name of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    const sub = path ? `${path}.${name}` : name;
    if (!(name in pb)) out.push(`${sub}: not in the capture`);
    else if (!(name in pa)) out.push(`${sub}: missing (the capture has it)`);
    else out.push(...schemaDiff(pa[name], pb[name], sub));
  }
  if (a.items !== undefined || b.items !== undefined) {
    out.push(...schemaDiff(a.items, b.items, `${path}[]`));
  }
  if (isObject(a.additionalProperties) || isObject(b.additionalProperties)) {
    out.push(...schemaDiff(a.additionalProperties, b.additionalProperties, `${path}{*}`));
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const la = Array.isArray(a[key]) ? a[key] as unknown[] : [];
    const lb = Array.isArray(b[key]) ? b[key] as unknown[] : [];
    if (la.length !== lb.length) {
      out.push(`${at}: ${key} has ${la.length} branches, capture has ${lb.length}`);
      continue;
    }
    la.forEach((branch, i) => out.push(...schemaDiff(branch, lb[i], `${path}<${key}${i}>`)));
  }
  return out;
}

/** The comment text of a TOML file: full-line comments and trailing ` # ...` comments. */
export function tomlComments(toml: string): string {
  return toml.split("\n").flatMap((line) => {
    const m = line.match(/(?:^|\s)#(.*)$/);
    return m ? [m[1]] : [];
  }).join("\n");
}

/**
 * Whether `text` names tool `name` as a whole word; `ns.*` names every tool `ns.<x>`.
 * `Agent` is not found in `ListAgents`, nor `edit` in `notebook_edit`.
 */
export function mentionsTool(text: string, name: string): boolean {
  const word = (w: string) => new RegExp(`(?<![\\w.-])${escape(w)}(?![\\w-])`).test(text);
  const dot = name.indexOf(".");
  return word(name) || (dot > 0 && word(`${name.slice(0, dot)}.*`));
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function sortedList(v: unknown): unknown {
  return Array.isArray(v) && v.length ? [...v].map(String).sort() : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(v: unknown): string {
  return v === undefined ? "(none)" : JSON.stringify(v);
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
