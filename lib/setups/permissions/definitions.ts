/**
 * The project's runnable definitions of one kind (lib/setups/definitions.ts): permission allow
 * rules from the project's files, each trusted on its own (a rule that lets commands run without
 * a question is as powerful as the commands it lets through).
 */
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";
import { allowRuleKey, projectRules } from "./load.ts";

/** The project's allow rules, one definition per rule and file, in file order. */
export async function allowRuleDefinitions(ctx: SetupContext): Promise<RunnableDefinition[]> {
  const { rules } = await projectRules(ctx);
  const out: RunnableDefinition[] = [];
  for (const rule of rules) {
    if (rule.list !== "allow") continue;
    out.push({
      kind: "allow_rule",
      name: rule.text,
      command: `allows ${rule.text} without a question`,
      source: rule.source,
      key: await allowRuleKey(rule),
    });
  }
  return out;
}
