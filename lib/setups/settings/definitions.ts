/** The project's runnable definitions of one kind (lib/setups/definitions.ts): status-line commands and `env` values from the project's settings files. */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";
import { envDefinition, envSets } from "./env.ts";
import { readSettingsFiles } from "./files.ts";
import {
  claudeStatusLines,
  projectStatusLineCommand,
  statusLineDefinition,
} from "./status_line.ts";

/**
 * The project's `env` sets and status-line scripts (its `.claude/settings*.json`, and
 * `status_line_command` of its own config); its hooks are listed with ours (lib/hooks).
 */
export async function settingsDefinitions(ctx: SetupContext): Promise<RunnableDefinition[]> {
  if (!ctx.projectTrusted) return [];
  const { files } = await readSettingsFiles({ ...ctx, userHome: undefined });
  const ignored: string[] = [];
  const env = await envSets(files, ctx.importUser, ignored);
  const lines = await claudeStatusLines(files, ignored);
  const ours = await projectStatusLineCommand(ctx);
  return [
    ...(ours ? [statusLineDefinition(ours)] : []),
    ...lines.map(statusLineDefinition),
    ...env.map(envDefinition),
  ];
}
