/**
 * Which status-line script a session runs (issue 33 §5): our top-level `status_line_command`
 * first, then Claude Code's `statusLine { "type": "command", "command", "padding",
 * "refreshInterval" }` of the user's `~/.claude/settings.json`, then a project's (nearest folder
 * first). The user's own ones run as written; a project's (its `.claude/settings*.json`, or
 * `status_line_command` in its `.openinterpreter/config.toml`) only once the user trusted that
 * exact command (`interpreter trust`).
 */
import { basename, dirname, join } from "node:path";
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import { definitionDigest } from "../../config/project_definitions.ts";
import { objectOf, type SettingsFile } from "./files.ts";

/** One status-line script as configured. */
export interface StatusLineSpec {
  command: string;
  /** Spaces before the line (Claude Code's `padding`). */
  padding: number;
  source: string;
  scope: "user" | "project";
  /** The digest of the exact command, under which the user's trust in it is kept. */
  key: string;
}

/** A status-line script as a session runs it: with the project's root for its input. */
export type StatusLineScript = StatusLineSpec & { projectDir: string };

/** The status-line script of `command` from `source`. */
export async function statusLineSpec(
  command: string,
  at: { source: string; scope: "user" | "project"; padding?: number },
): Promise<StatusLineSpec> {
  const key = await definitionDigest(["status_line", command]);
  return { command, padding: at.padding ?? 0, source: at.source, scope: at.scope, key };
}

/** Claude Code's `statusLine` entries of `files`, in their order; a bad one is a warning. */
export async function claudeStatusLines(
  files: readonly SettingsFile[],
  warnings: string[],
): Promise<StatusLineSpec[]> {
  const out: StatusLineSpec[] = [];
  for (const file of files) {
    if (file.vendor !== "claude" || file.data.statusLine === undefined) continue;
    const entry = objectOf(file.data.statusLine);
    if (entry?.type !== "command" || typeof entry.command !== "string" || !entry.command.trim()) {
      warnings.push(
        `The statusLine of ${file.path} is skipped: expected { "type": "command", "command": ` +
          '"..." }',
      );
      continue;
    }
    const padding = typeof entry.padding === "number"
      ? Math.max(0, Math.min(20, entry.padding))
      : 0;
    out.push(
      await statusLineSpec(entry.command, { source: file.path, scope: file.scope, padding }),
    );
  }
  return out;
}

/** The runnable definition `interpreter trust` lists for a project's status-line script. */
export function statusLineDefinition(spec: StatusLineSpec): RunnableDefinition {
  return {
    kind: "status_line",
    // The file that sets it, as `.claude/settings.json`.
    name: join(basename(dirname(spec.source)), basename(spec.source)),
    command: spec.command,
    source: spec.source,
    key: spec.key,
  };
}

/** `status_line_command` of the project's own config file, when it sets one. */
export async function projectStatusLineCommand(
  ctx: { projectRoot: string; isHeldBack?: (path: string) => boolean },
): Promise<StatusLineSpec | undefined> {
  const file = join(ctx.projectRoot, ".openinterpreter", "config.toml");
  if (ctx.isHeldBack?.(file)) return undefined;
  const { configLayerOf, readConfigText } = await import("../../config/mcp_servers_file.ts");
  const text = await readConfigText(file).catch(() => "");
  if (!text.includes("status_line_command")) return undefined;
  let command: string | undefined;
  try {
    command = configLayerOf(text, file).status_line_command;
  } catch {
    return undefined; // the config loader reports a bad file
  }
  return command ? await statusLineSpec(command, { source: file, scope: "project" }) : undefined;
}
