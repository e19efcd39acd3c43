/** The project's runnable definitions of one kind (lib/setups/definitions.ts): permission allow rules from the project's files. */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";

/** STUB until issue 33's part lands: none. */
export function allowRuleDefinitions(_ctx: SetupContext): Promise<RunnableDefinition[]> {
  return Promise.resolve([]);
}
