/** The project's runnable definitions of one kind (lib/setups/definitions.ts): status-line commands and `env` values from the project's settings files. */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";

/** STUB until issue 33's part lands: none. */
export function settingsDefinitions(_ctx: SetupContext): Promise<RunnableDefinition[]> {
  return Promise.resolve([]);
}
