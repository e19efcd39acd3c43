import { basename, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import * as z from "zod";
import { HarnessError, tomlSyntaxHint } from "../errors.ts";
import { InputFileError, MAX_INPUT_FILE_BYTES_TEXT, readInputText } from "../input_file.ts";
import type { ToolDeclaration } from "../model/message.ts";
import { capabilityById } from "../tools/registry.ts";
import { checkToolMapping } from "./_check_tool.ts";
import { checkShift, resultFormat } from "./_check_result.ts";
import { loadCodeMode } from "./code_mode.ts";
import { loadProjectInstructions } from "./project_instructions.ts";
import { loadContext, toRequestSpecs } from "./request_schema.ts";
import { checkPromptTemplate, modelFactsOf } from "./prompt.ts";
import { resolveProtocol } from "./protocols/mod.ts";
import { loadLean } from "./lean.ts";
import { loadRoute } from "./_tool_route.ts";
import { loadReminders } from "./reminder_texts.ts";
import { loadHarnessTexts } from "./session_texts.ts";
import type { HarnessCandidate } from "./select.ts";
import {
  candidateSchema,
  declarationSchema,
  type HarnessSpec,
  harnessSpecSchema,
  matchSchema,
} from "./spec_schema.ts";
import type { Harness, HarnessMatch, HarnessTool } from "./types.ts";

/** Name of the spec file inside a harness folder. */
export const SPEC_FILE = "harness.toml";

/** The result of an interrupted call for a harness whose spec has no `interrupted_text`. */
export const DEFAULT_INTERRUPTED_TEXT = "The user interrupted this tool call before it finished.";

/** Where harness folders are looked up. */
export interface HarnessDirs {
  /** The repository's `harnesses/` folder. */
  builtinDir: string;
  /** The user's harness folder (`~/.openinterpreter/harnesses`), checked first. */
  userDir?: string;
}

const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

/** Loads and validates harness `id`, from the user folder first, then the built-in one. */
export async function loadHarness(id: string, opts: HarnessDirs): Promise<Harness> {
  if (ID_PATTERN.test(id)) {
    for (const root of roots(opts)) {
      const dir = join(root, id);
      const builtIn = root === opts.builtinDir && root !== opts.userDir;
      if (await isFile(join(dir, SPEC_FILE))) return await loadHarnessDir(dir, { builtIn });
    }
  }
  const ids = await listHarnessIds(opts);
  throw new HarnessError(`Unknown harness "${id}"`, {
    hint: ids.length
      ? `Available harnesses: ${ids.join(", ")}`
      : `No harness folders found in ${roots(opts).join(" or ")}`,
  });
}

/** Ids of every harness folder (one holding a `harness.toml`) in the user and built-in folders. */
export async function listHarnessIds(opts: HarnessDirs): Promise<string[]> {
  const ids = new Set<string>();
  for (const root of roots(opts)) {
    try {
      for await (const entry of Deno.readDir(root)) {
        // Folders whose name is no id, such as `_shared`, hold no harness.
        if (!ID_PATTERN.test(entry.name)) continue;
        if (await isFile(join(root, entry.name, SPEC_FILE))) ids.add(entry.name);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return [...ids].sort();
}

/**
 * Every harness folder with its `[match]` block, for automatic choice. Reads only each
 * `harness.toml` and checks only its `[match]`; a user folder hides a built-in one of its id, and
 * one that does not parse is left out.
 */
export async function loadHarnessCandidates(opts: HarnessDirs): Promise<HarnessCandidate[]> {
  const out: HarnessCandidate[] = [];
  for (const id of await listHarnessIds(opts)) {
    const user = opts.userDir !== undefined && await isFile(join(opts.userDir, id, SPEC_FILE));
    const file = join(user ? opts.userDir! : opts.builtinDir, id, SPEC_FILE);
    try {
      const spec = parseSpec(await readText(file, "Cannot load harness"), file, candidateSchema);
      out.push({ id, user, match: toMatch(spec.match), wireApis: spec.wire_apis });
    } catch (err) {
      // A broken user harness is skipped here and named by userHarnessWarnings.
      if (!user || !(err instanceof HarnessError)) throw err;
    }
  }
  return out;
}

function toMatch(m: z.infer<typeof matchSchema>): HarnessMatch {
  return {
    models: m.models,
    providers: m.providers,
    baseUrls: m.base_urls,
    wireApis: m.wire_apis,
    priority: m.priority,
  };
}

/** The template checks (template_checks.ts), for a harness that is not built in. */
type TemplateChecks = typeof import("./template_checks.ts");

/**
 * Loads and validates the harness in folder `dir`; `builtIn` (one of ours, whose texts the tests
 * check) skips the checks of its texts against their placeholders.
 */
export async function loadHarnessDir(
  dir: string,
  opts: { builtIn?: boolean } = {},
): Promise<Harness> {
  const checks = opts.builtIn ? undefined : await import("./template_checks.ts");
  dir = resolve(dir);
  const file = join(dir, SPEC_FILE);
  const spec = parseSpec(await readText(file, `Cannot load harness from "${dir}"`), file);
  const at = (key: string) => `Invalid harness spec "${file}": key "${key}"`;
  if (spec.id !== basename(dir)) {
    throw new HarnessError(`${at("id")}: "${spec.id}" does not match the folder name`, {
      hint: `Set id = "${basename(dir)}" or rename the folder to "${spec.id}"`,
    });
  }
  checkPlaceholders(
    spec.error_template,
    ["message", "hint", "if_hint", "unless_hint"],
    at("error_template"),
  );
  const invalidArguments = invalidArgumentsTexts(spec.invalid_arguments);
  checks?.checkHarnessTexts({ unknownTool: spec.unknown_tool_template, invalidArguments }, at);
  if (spec.unloaded_tool_template) {
    checkPlaceholders(
      spec.unloaded_tool_template,
      ["name", "search_tool"],
      at("unloaded_tool_template"),
    );
  }
  const promptFile = resolve(dir, spec.system_prompt);
  const systemPrompt = await readText(promptFile, at("system_prompt"));
  checkPromptTemplate(systemPrompt, promptFile);
  const guidance = spec.guidance
    ? await loadGuidance(resolve(dir, spec.guidance), systemPrompt, at("guidance"))
    : undefined;
  const tools = await loadTools(spec.tools, dir, at, checks);
  checkDeferredReachable(tools, at("tools"));
  const protocol = resolveProtocol(spec.interaction, { tools, at });
  const systemSlot = { slot: spec.system_prompt_slot, cache: spec.system_prompt_cache };
  const context = await loadContext(spec.context, {
    dir,
    specFile: file,
    systemPrompt: { text: systemPrompt, ...systemSlot },
    at,
    readText,
  });
  return {
    id: spec.id,
    label: spec.label,
    dir,
    systemPrompt,
    ...(guidance ? { guidance } : {}),
    ...modelFactsOf(spec.model_facts),
    tools: tools.filter((t) => !t.codeMode),
    wireApis: spec.wire_apis,
    reasoningReplay: spec.reasoning_replay,
    reminders: loadReminders(spec.reminders, at),
    reasoningPlaceholder: spec.reasoning_placeholder,
    sourceToolName: spec.source_tool_name,
    errorTemplate: spec.error_template,
    unknownToolTemplate: spec.unknown_tool_template,
    ...(spec.unloaded_tool_template ? { unloadedToolTemplate: spec.unloaded_tool_template } : {}),
    interruptedText: spec.interrupted_text ?? DEFAULT_INTERRUPTED_TEXT,
    ...(invalidArguments ? { invalidArguments } : {}),
    match: toMatch(spec.match),
    ...(protocol ? { protocol } : {}),
    request: toRequestSpecs(spec.request),
    // The context, with the project instructions' block where [project_instructions] puts it.
    ...await loadProjectInstructions(spec.project_instructions, { dir, context, at, readText }),
    texts: await loadHarnessTexts(spec.prompts, { dir, at, readText }),
    ...await loadLean(spec, { dir, specFile: file, tools, at, readText }),
    ...await loadCodeMode(spec, { dir, specFile: file, tools, at, readText }),
  };
}

/** The spec's `[[tools]]`, each declaration read and its mapping checked. */
async function loadTools(
  entries: HarnessSpec["tools"],
  dir: string,
  at: (key: string) => string,
  checks?: TemplateChecks,
): Promise<HarnessTool[]> {
  const tools: HarnessTool[] = [];
  for (const [i, entry] of entries.entries()) {
    const atTool = (key: string) => at(`tools[${i}].${key}`);
    const declaration = await loadDeclaration(resolve(dir, entry.declaration), atTool);
    const tool: HarnessTool = {
      declaration,
      capability: entry.capability,
      args: { ...entry.args },
      fixedArgs: plain(entry.fixed_args),
      scale: { ...entry.scale },
      shift: { ...entry.shift },
      result: resultFormat(entry.result),
      deferred: entry.deferred,
      ...(entry.code_mode ? { codeMode: true } : {}),
      ...(entry.when ? { when: entry.when } : {}),
      ...(Object.keys(entry.errors).length ? { errors: { ...entry.errors } } : {}),
    };
    checkToolMapping(tool, capabilityById(entry.capability), atTool);
    checks?.checkResultPlaceholders(tool, atTool);
    checks?.checkToolErrors(tool, atTool);
    checks?.checkFailedResult(tool, atTool);
    checkShift(tool, atTool);
    if (entry.route) tool.route = loadRoute(entry.route, declaration, atTool, checks);
    const twin = tools.find((t) => t.declaration.name === declaration.name);
    if (twin && twin.codeMode === tool.codeMode) {
      throw new HarnessError(
        `${atTool("declaration")}: tool "${declaration.name}" is declared twice`,
        { hint: "Give each tool a different name (a code-mode tool may reuse a classic one's)" },
      );
    }
    tools.push(tool);
  }
  return tools;
}

/** The guidance text; the system prompt must have a `{{guidance}}` slot for it. */
async function loadGuidance(path: string, systemPrompt: string, where: string): Promise<string> {
  const text = (await readText(path, where)).trim();
  if (!/\{\{\s*guidance\s*\}\}/.test(systemPrompt)) {
    throw new HarnessError(`${where}: the system prompt has no {{guidance}} placeholder`, {
      hint: "Add {{guidance}} to the system prompt where the guidance belongs",
    });
  }
  return text;
}

/** Deferred tools are reachable only through a tool that is sent and can search or call. */
function checkDeferredReachable(tools: HarnessTool[], where: string): void {
  const deferred = tools.filter((t) => t.deferred).map((t) => t.declaration.name);
  const reach = ["tools.search", "tools.call"];
  if (deferred.length && !tools.some((t) => !t.deferred && reach.includes(t.capability))) {
    throw new HarnessError(
      `${where}: deferred tools ${deferred.map((n) => `"${n}"`).join(", ")} cannot be reached`,
      { hint: 'Add a tool that is not deferred with capability "tools.search" or "tools.call"' },
    );
  }
}

function roots(opts: HarnessDirs): string[] {
  return opts.userDir ? [opts.userDir, opts.builtinDir] : [opts.builtinDir];
}

function parseSpec<S extends z.ZodType = typeof harnessSpecSchema>(
  text: string,
  file: string,
  schema: S = harnessSpecSchema as unknown as S,
): z.infer<S> {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    const { line, column } = err as { line?: number; column?: number };
    const where = typeof line === "number" ? ` at line ${line}, column ${column}` : "";
    throw new HarnessError(`Cannot parse "${file}"${where}: ${firstLine(err)}`, {
      hint: tomlSyntaxHint(firstLine(err), typeof line === "number" ? ` at line ${line}` : ""),
      cause: err,
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HarnessError(`Invalid harness spec "${file}": ${describeIssue(issue)}`, {
      hint: issue.code === "unrecognized_keys"
        ? "Remove the key or fix its spelling"
        : "Give the key a value of the type shown; the README's Harnesses section lists the keys",
    });
  }
  return parsed.data;
}

async function loadDeclaration(
  path: string,
  at: (key: string) => string,
): Promise<ToolDeclaration> {
  const text = await readText(path, at("declaration"));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HarnessError(`Invalid tool declaration "${path}": ${firstLine(err)}`, {
      hint: "Fix the JSON syntax",
      cause: err,
    });
  }
  const parsed = declarationSchema.safeParse(json);
  if (!parsed.success) {
    throw new HarnessError(
      `Invalid tool declaration "${path}": ${describeIssue(parsed.error.issues[0])}`,
      { hint: 'A declaration is {"name", "description", "parameters": {"type": "object", ...}}' },
    );
  }
  return json as ToolDeclaration; // as written: the strict schema let no other key through
}

async function readText(path: string, where: string): Promise<string> {
  try {
    return await readInputText(path, { what: "harness file" });
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    throw new HarnessError(`${where}: cannot read "${path}": ${err.reason}`, {
      hint: err.missing
        ? `Create the file or fix the path (relative to the folder of ${SPEC_FILE})`
        : `Make it a regular file of at most ${MAX_INPUT_FILE_BYTES_TEXT}`,
      cause: err,
    });
  }
}

function checkPlaceholders(template: string, allowed: string[], where: string): void {
  for (const m of template.matchAll(/\{([a-z_][a-z0-9_]*)\}/g)) {
    if (!allowed.includes(m[1])) {
      throw new HarnessError(`${where}: unknown placeholder "{${m[1]}}"`, {
        hint: `Use ${allowed.map((a) => `{${a}}`).join(" and ")}`,
      });
    }
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = issue.path.map((p, i) =>
    typeof p === "number" ? `[${p}]` : i ? `.${String(p)}` : String(p)
  )
    .join("");
  if (issue.code === "unrecognized_keys") {
    const where = key ? ` in "${key}"` : "";
    return `unknown key${issue.keys.length > 1 ? "s" : ""} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }${where}`;
  }
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) {
    return `missing key "${key}" (${issue.expected})`;
  }
  return `key "${key || "(root)"}": ${issue.message}`;
}

const firstLine = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).split("\n")[0];

function plain(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value));
}

function isFile(path: string): Promise<boolean> {
  return Deno.stat(path).then((s) => s.isFile, () => false);
}

function invalidArgumentsTexts(
  t: HarnessSpec["invalid_arguments"],
): Harness["invalidArguments"] {
  if (!t) return undefined;
  const { not_json: notJson, ...rest } = t;
  return { ...rest, ...(notJson !== undefined ? { notJson } : {}) };
}
