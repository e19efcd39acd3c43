/**
 * Claude Code's `env` settings (issue 33 §5): an object of variables that the commands the agent
 * runs (the shell tools, command sessions, a custom command's pre-execution) get, laid under our
 * `[shell_environment_policy]` (its `set` wins, its excludes and `include_only` still apply; an
 * empty value removes a variable). Never hooks or MCP servers. The user's `~/.claude/settings.json`
 * counts only with `import_user_setups` naming "env"; a project's file only once the user trusted
 * its exact set of values (`interpreter trust`). For one name the user's value wins, then the
 * nearest project file's.
 */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import { definitionDigest } from "../../config/project_definitions.ts";
import { objectOf, type SettingsFile } from "./files.ts";

/** One file's `env`. */
export interface EnvSet {
  source: string;
  scope: "user" | "project";
  /** Name to value; "" removes the variable. */
  values: Record<string, string>;
  /** The digest of the exact set, under which the user's trust in it is kept. */
  key: string;
}

/** The `env` sets of Claude Code's settings files among `files`, in their order. */
export async function envSets(
  files: readonly SettingsFile[],
  importUser: ReadonlySet<string>,
  warnings: string[],
): Promise<EnvSet[]> {
  const out: EnvSet[] = [];
  for (const file of files) {
    if (file.vendor !== "claude" || (file.scope === "user" && !importUser.has("env"))) continue;
    const env = objectOf(file.data.env);
    if (!env) continue;
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || typeof value === "object") {
        warnings.push(
          `The env entry "${name}" of ${file.path} is skipped: expected a variable name and ` +
            "a string value",
        );
      } else values[name] = String(value);
    }
    if (Object.keys(values).length === 0) continue;
    const key = await definitionDigest(["env", values]);
    out.push({ source: file.path, scope: file.scope, values, key });
  }
  return out;
}

/** The runnable definition `interpreter trust` lists for a project's env set. */
export function envDefinition(set: EnvSet): RunnableDefinition {
  return {
    kind: "env",
    name: Object.keys(set.values).join(", "),
    command: Object.entries(set.values).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" "),
    source: set.source,
    key: set.key,
  };
}

/** The variables of the usable sets merged: for one name the first set's value wins. */
export function mergedEnv(sets: readonly EnvSet[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set.values)) {
      if (!(name in out)) out[name] = value;
    }
  }
  return out;
}
