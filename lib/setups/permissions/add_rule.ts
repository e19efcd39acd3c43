/**
 * `/permissions allow|ask|deny RULE [--project]`: checks the rule, adds it to the user's
 * `config.toml` (or the project's `.openinterpreter/config.toml`) in place, and to the running
 * session at once. A project allow rule the user adds this way is theirs: it is trusted with it.
 */
import { dirname, join } from "node:path";
import type { EffectiveConfig } from "../../config/mod.ts";
import { readConfigText, userConfigFile, writeConfigText } from "../../config/mcp_servers_file.ts";
import { grantTrust } from "../../config/trust_store.ts";
import type { PermissionGate } from "./gate.ts";
import { allowRuleKey } from "./load.ts";
import { parseRule, type RuleList } from "./rules.ts";
import { withPermissionRule } from "./rules_file.ts";

/** What adding a rule did: the file, and whether the rule was new there. */
export interface AddedRule {
  file: string;
  added: boolean;
}

/** Adds `change.rule` to `change.list` (see the module comment); a `ConfigError` on a bad rule. */
export async function addPermissionRule(
  agent: { config: Pick<EffectiveConfig, "home" | "projectRoot">; permissions?: PermissionGate },
  change: { list: RuleList; rule: string; project: boolean },
): Promise<AddedRule> {
  const { home, projectRoot } = agent.config;
  const file = change.project
    ? join(projectRoot, ".openinterpreter", "config.toml")
    : userConfigFile(home);
  const rule = parseRule(change.rule, {
    list: change.list,
    source: file,
    scope: change.project ? "project" : "user",
    root: projectRoot,
    key: `permission_rules.${change.list}`,
  });
  const text = await readConfigText(file);
  const edited = withPermissionRule(text, file, { list: change.list, rule: rule.text });
  if (edited !== text) {
    await Deno.mkdir(dirname(file), { recursive: true });
    await writeConfigText(file, edited);
  }
  if (change.project && change.list === "allow") {
    await grantTrust(home, projectRoot, { definitions: [await allowRuleKey(rule)] });
  }
  const gate = agent.permissions;
  const known = gate?.rules().some((r) =>
    r.list === rule.list && r.text === rule.text && r.source === file
  );
  if (gate && !known) gate.add(rule);
  return { file, added: edited !== text };
}
