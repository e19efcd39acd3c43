/**
 * Every runnable definition a project brings in other agents' files and our own setup folders
 * (issue 33): what `interpreter trust` lists and the REPL asks about at start, besides our own
 * hooks and MCP servers (lib/session/trust.ts). Each kind's module finds its own; none runs
 * before the user trusted its exact definition.
 */
import type { RunnableDefinition } from "../config/project_definitions.ts";
import type { SetupContext } from "./sources.ts";
import { commandDefinitions } from "./commands/definitions.ts";
import { setupMcpDefinitions } from "./mcp/definitions.ts";
import { allowRuleDefinitions } from "./permissions/definitions.ts";
import { settingsDefinitions } from "./settings/definitions.ts";

/** The project's runnable definitions from lib/setups, kind by kind; none for an untrusted one. */
export async function setupDefinitions(ctx: SetupContext): Promise<RunnableDefinition[]> {
  if (!ctx.projectTrusted) return [];
  const lists = await Promise.all([
    setupMcpDefinitions(ctx),
    commandDefinitions(ctx),
    allowRuleDefinitions(ctx),
    settingsDefinitions(ctx),
  ]);
  return lists.flat();
}
