/**
 * The tool names and inputs hooks see, the same whatever the harness calls its tools (Codex's
 * and Claude Code's names, §9): every shell tool is `Bash` with `{ command }`, `apply_patch` has
 * the patch as `command`, the file tools are `Write`, `Edit`, `Read`, `NotebookEdit` with an
 * absolute `file_path`, and an MCP tool is `mcp__<server>__<tool>` with its own arguments. Every
 * edit also matches `apply_patch`, `Write` and `Edit`, so a matcher for one catches them all.
 * A hook's `updatedInput` is mapped back the same way and laid over the call's input.
 */
import { isAbsolute, join } from "node:path";
import { SOURCE_CAPABILITY_PREFIX } from "../loop/tool_sources.ts";

/** A call as hooks see it. */
export interface HookToolView {
  /** `tool_name` of the hook's input. */
  name: string;
  /** Names a matcher may match: the name first, then its aliases. */
  matchNames: string[];
  /** `tool_input` of the hook's input. */
  input: Record<string, unknown>;
}

/** The names every edit matches besides its own. */
const EDIT_ALIASES = ["apply_patch", "Write", "Edit"];

/** Per capability: the hook-facing name and the renamed fields (capability field → hook field). */
interface ViewSpec {
  name: string | ((input: Record<string, unknown>) => string);
  renames?: Record<string, string>;
  /** Fields set in the hook's view only. */
  extra?: Record<string, unknown>;
  edit?: boolean | ((input: Record<string, unknown>) => boolean);
}

const FILE = { path: "file_path" };

const SPECS: Record<string, ViewSpec> = {
  "shell.run": { name: "Bash", renames: { timeout_ms: "timeout" } },
  "shell.start": { name: "Bash", extra: { run_in_background: true } },
  "shell.output": { name: "BashOutput" },
  "shell.monitor": { name: "Monitor" },
  "shell.stop": { name: "KillShell" },
  "fs.apply_patch": { name: "apply_patch", renames: { patch: "command" }, edit: true },
  "fs.write": { name: "Write", renames: FILE, edit: true },
  "fs.edit": { name: "Edit", renames: FILE, edit: true },
  "fs.notebook_edit": { name: "NotebookEdit", renames: { path: "notebook_path" }, edit: true },
  "fs.str_replace_editor": {
    name: (input) =>
      input.command === "view" ? "Read" : input.command === "create" ? "Write" : "Edit",
    renames: FILE,
    edit: (input) => input.command !== "view",
  },
  "fs.read": { name: "Read", renames: FILE },
  "fs.glob": { name: "Glob" },
  "fs.grep": { name: "Grep" },
  "fs.list": { name: "LS" },
  "web.fetch": { name: "WebFetch" },
  "agent.run": { name: "Task" },
  "todo.write": { name: "TodoWrite" },
  "plan.exit": { name: "ExitPlanMode" },
  "skill.load": { name: "Skill" },
};

/** Fields holding a path that hooks see absolute. */
const PATH_FIELDS = new Set(["file_path", "notebook_path"]);

/**
 * How hooks see a call: to capability `capability` with `input` (its capability input), made
 * as `wireName`; `cwd` makes file paths absolute.
 */
export function hookToolView(
  call: { wireName: string; capability?: string; input?: unknown },
  cwd: string,
): HookToolView {
  const input = asRecord(call.input);
  const capability = call.capability ?? "";
  if (capability.startsWith(SOURCE_CAPABILITY_PREFIX)) {
    const [source, ...tool] = capability.slice(SOURCE_CAPABILITY_PREFIX.length).split("/");
    const name = `mcp__${source}__${tool.join("/")}`;
    return { name, matchNames: [name], input: { ...input } };
  }
  const spec = SPECS[capability];
  if (!spec) return { name: call.wireName, matchNames: [call.wireName], input: { ...input } };
  const name = typeof spec.name === "string" ? spec.name : spec.name(input);
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = spec.renames?.[key] ?? key;
    view[field] = PATH_FIELDS.has(field) && typeof value === "string" && !isAbsolute(value)
      ? join(cwd, value)
      : value;
  }
  Object.assign(view, spec.extra);
  const edit = typeof spec.edit === "function" ? spec.edit(input) : spec.edit === true;
  const matchNames = edit ? [...new Set([name, ...EDIT_ALIASES])] : [name];
  return { name, matchNames, input: view };
}

/**
 * The capability input a hook's `updatedInput` asks for: its fields named back for the
 * capability, laid over `original` (fields the hook leaves out keep their values).
 */
export function inputFromHook(
  capability: string,
  updated: Record<string, unknown>,
  original: unknown,
): unknown {
  const spec = SPECS[capability];
  const back = Object.fromEntries(
    Object.entries(spec?.renames ?? {}).map(([field, hookField]) => [hookField, field]),
  );
  const out: Record<string, unknown> = { ...asRecord(original) };
  for (const [key, value] of Object.entries(updated)) {
    if (spec?.extra && key in spec.extra) continue;
    out[back[key] ?? key] = value;
  }
  return out;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}
