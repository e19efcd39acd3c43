/**
 * The `hooks` of other agents' settings files as our hook tables (issue 33 §5), for
 * `lib/hooks/discovery.ts`. Claude Code's and Qwen Code's hooks have our shape and event names
 * already; Gemini CLI's events are renamed (`BeforeTool` is `PreToolUse`, `AfterAgent` is `Stop`,
 * ...) and its timeouts are milliseconds. Gemini's and Qwen's tool names in a matcher
 * (`run_shell_command`) become the names our hooks see (`Bash`). Only `command` handlers run; an
 * event we do not have, another handler type or a bad matcher is skipped with one warning naming
 * the file. The user's files count only with `import_user_setups` naming "hooks".
 */
import {
  DEFAULT_HOOK_TIMEOUT_SEC,
  HOOK_EVENTS,
  type HookEvent,
} from "../../config/hooks_schema.ts";
import type { HooksTable } from "../../config/hooks_schema.ts";
import type { SetupContext } from "../sources.ts";
import { objectOf, readSettingsFiles, type SettingsFile } from "./files.ts";

/** One settings file's hooks as a hook source. */
export interface VendorHookSource {
  file: string;
  scope: "user" | "project";
  table: HooksTable;
}

/** Gemini CLI's hook events that we have, by our name. */
const GEMINI_EVENTS: Readonly<Record<string, HookEvent>> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  SessionStart: "SessionStart",
  PreCompress: "PreCompact",
};

/** Gemini CLI's (and Qwen Code's) tool names, as our hooks name the tools. */
const GEMINI_TOOLS: Readonly<Record<string, string>> = {
  run_shell_command: "Bash",
  write_file: "Write",
  replace: "Edit",
  edit: "Edit",
  read_file: "Read",
  read_many_files: "Read",
  glob: "Glob",
  search_file_content: "Grep",
  grep_search: "Grep",
  list_directory: "LS",
  web_fetch: "WebFetch",
  write_todos: "TodoWrite",
  todo_write: "TodoWrite",
  task: "Task",
};

/** Gemini's default hook timeout, in seconds (60,000 ms). */
const GEMINI_DEFAULT_TIMEOUT_SEC = 60;

/** The hook sources of the settings files `ctx` reaches, and what was skipped. */
export async function vendorHookSources(
  ctx: SetupContext,
): Promise<{ sources: VendorHookSource[]; warnings: string[] }> {
  const { files, warnings } = await readSettingsFiles(ctx);
  const sources: VendorHookSource[] = [];
  for (const file of files) {
    if (file.scope === "user" && !ctx.importUser.has("hooks")) continue;
    const hooks = objectOf(file.data.hooks);
    if (!hooks) continue;
    sources.push({ file: file.path, scope: file.scope, table: hookTable(file, hooks, warnings) });
  }
  return { sources, warnings };
}

/** One file's `hooks` object as a hook table; what cannot run is a warning. */
export function hookTable(
  file: Pick<SettingsFile, "path" | "vendor">,
  hooks: Record<string, unknown>,
  warnings: string[],
): HooksTable {
  const gemini = file.vendor === "gemini";
  const table: HooksTable = {};
  for (const [name, groups] of Object.entries(hooks)) {
    const event = gemini ? GEMINI_EVENTS[name] : HOOK_EVENTS.find((e) => e === name);
    if (!event) {
      warnings.push(
        `The ${name} hooks of ${file.path} are skipped: interpreter has no such event ` +
          `(it has ${HOOK_EVENTS.join(", ")})`,
      );
      continue;
    }
    const converted = groupsOf(groups, { ...file, name, gemini }, warnings);
    if (converted.length > 0) table[event] = [...table[event] ?? [], ...converted];
  }
  return table;
}

type Groups = NonNullable<HooksTable[HookEvent]>;

interface GroupContext {
  path: string;
  vendor: SettingsFile["vendor"];
  /** The event as the file names it. */
  name: string;
  gemini: boolean;
}

function groupsOf(groups: unknown, at: GroupContext, warnings: string[]): Groups {
  if (!Array.isArray(groups)) {
    warnings.push(`The ${at.name} hooks of ${at.path} are skipped: expected a list of groups`);
    return [];
  }
  const out: Groups = [];
  for (const [i, raw] of groups.entries()) {
    const group = objectOf(raw);
    const where = `${at.name}[${i}] of ${at.path}`;
    const matcher = group && matcherOf(group.matcher, at.vendor);
    if (!group || !Array.isArray(group.hooks) || matcher === null) {
      warnings.push(
        `The hook group ${where} is skipped: expected { "matcher": "...", "hooks": [ ... ] }` +
          " with a matcher of tool names or a regular expression",
      );
      continue;
    }
    const hooks = group.hooks.flatMap((h, j) => handlerOf(h, `${where}, hook ${j}`, at, warnings));
    if (hooks.length > 0) out.push({ ...(matcher !== undefined ? { matcher } : {}), hooks });
  }
  return out;
}

type Handler = Groups[number]["hooks"][number];

function handlerOf(
  raw: unknown,
  where: string,
  at: GroupContext,
  warnings: string[],
): Handler[] {
  const hook = objectOf(raw);
  if (hook?.type !== "command" || typeof hook.command !== "string" || !/\S/.test(hook.command)) {
    const type = typeof hook?.type === "string" ? `type "${hook.type}"` : "no command";
    warnings.push(`The hook ${where} is skipped: it has ${type}; only "command" hooks run here`);
    return [];
  }
  const timeout = typeof hook.timeout === "number" && hook.timeout > 0
    ? (at.gemini ? Math.max(1, Math.ceil(hook.timeout / 1000)) : hook.timeout)
    : (at.gemini ? GEMINI_DEFAULT_TIMEOUT_SEC : DEFAULT_HOOK_TIMEOUT_SEC);
  const status = typeof hook.statusMessage === "string" ? hook.statusMessage : undefined;
  return [{
    type: "command",
    command: hook.command,
    timeout: Math.min(timeout, 86_400),
    ...(status !== undefined ? { statusMessage: status } : {}),
  }];
}

/**
 * A group's matcher as our hooks read it: undefined for none, null when unusable. Gemini's and
 * Qwen's tool names in a list of names are renamed to ours; Claude Code's name lists may use
 * commas and spaces, which become `|`.
 */
export function matcherOf(
  matcher: unknown,
  vendor: SettingsFile["vendor"],
): string | undefined | null {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined;
  if (typeof matcher !== "string") return null;
  if (/^[A-Za-z0-9_|,\s-]+$/.test(matcher)) {
    const names = matcher.split(/[|,\s]+/).filter(Boolean);
    const renamed = vendor === "gemini" || vendor === "qwen"
      ? names.map((name) => GEMINI_TOOLS[name] ?? name)
      : names;
    if (renamed.every((name) => /^[A-Za-z0-9_]+$/.test(name))) {
      return [...new Set(renamed)].join("|");
    }
  }
  try {
    new RegExp(matcher);
    return matcher;
  } catch {
    return null;
  }
}
