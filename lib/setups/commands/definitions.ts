/** The project's runnable definitions of one kind (lib/setups/definitions.ts): custom commands with shell pre-execution and the `allowed-tools` of commands. */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";

/** STUB until issue 33's part lands: none. */
export function commandDefinitions(_ctx: SetupContext): Promise<RunnableDefinition[]> {
  return Promise.resolve([]);
}
