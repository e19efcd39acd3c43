/** The project's runnable definitions of one kind (lib/setups/definitions.ts): MCP servers from other agents' files (.mcp.json, .gemini/settings.json, ...). */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";

/** STUB until issue 33's part lands: none. */
export function setupMcpDefinitions(_ctx: SetupContext): Promise<RunnableDefinition[]> {
  return Promise.resolve([]);
}
