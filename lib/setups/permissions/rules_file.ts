/**
 * Adding one rule to `[permission_rules]` of a `config.toml` (`/permissions allow|ask|deny`): the
 * table is rewritten where it stands, the comments above it and every other table byte for byte.
 * The edit is checked by parsing the result, which must hold the old values plus the one rule.
 */
import { isTable } from "../../config/_keypath.ts";
import { parseToml } from "../../config/_layer.ts";
import { configLayerOf, sameToml } from "../../config/mcp_servers_file.ts";
import { appendTable, replaceTable, tableSetOutsideHeaders } from "../../config/toml_tables.ts";
import { ConfigError } from "../../errors.ts";
import { RULE_LISTS, type RuleList } from "./rules.ts";

const PATH = ["permission_rules"];

/**
 * `text` (config file `file`) with `rule` added to its `list`; `text` itself when the rule is
 * there already. A `ConfigError` when the table is written in a form this cannot edit.
 */
export function withPermissionRule(
  text: string,
  file: string,
  change: { list: RuleList; rule: string },
): string {
  const current = configLayerOf(text, file).permission_rules ?? {};
  if (current[change.list]?.includes(change.rule)) return text;
  const next: Record<string, string[]> = { ...current };
  next[change.list] = [...(current[change.list] ?? []), change.rule];
  if (tableSetOutsideHeaders(text, PATH) !== undefined) throw unsafe(file);
  const lines = ["[permission_rules]"];
  for (const list of [...RULE_LISTS].reverse()) {
    const rules = next[list];
    if (rules !== undefined) lines.push(`${list} = [${rules.map(tomlString).join(", ")}]`);
  }
  const table = lines.join("\n") + "\n";
  const edited = replaceTable(text, PATH, table) ?? appendTable(text, table);
  const before = parseToml(text, file);
  const after = parseToml(edited, file);
  before.permission_rules = parseToml(table, file).permission_rules;
  if (!isTable(after.permission_rules) || !sameToml(after, before)) throw unsafe(file);
  configLayerOf(edited, file);
  return edited;
}

function tomlString(value: string): string {
  return JSON.stringify(value).replaceAll("\x7f", "\\u007F");
}

function unsafe(file: string): ConfigError {
  return new ConfigError(`Cannot add the rule to "${file}" safely`, {
    hint: `Edit [permission_rules] in "${file}" by hand (as its own table with allow, ask and ` +
      "deny lists), or run the command again once it is one",
  });
}
