/**
 * Permission rules in Claude Code's syntax (`Bash(npm run test:*)`, `Read(./secrets/**)`,
 * `WebFetch(domain:example.com)`, `mcp__server__tool`): what one rule says and where it came
 * from. Rules name tools by Claude Code's names; `match.ts` maps them onto our capabilities, so
 * they hold under every harness.
 */
import { ConfigError } from "../../errors.ts";
import { setupWarning } from "../sources.ts";

/** The three lists, in the order they decide: deny, then ask, then allow. */
export const RULE_LISTS = ["deny", "ask", "allow"] as const;

/** One of the three lists. */
export type RuleList = typeof RULE_LISTS[number];

/** Whose rule it is: the user's files, the project's, or a command's `allowed-tools` for a turn. */
export type RuleScope = "user" | "project" | "turn";

/** One rule as written and where it came from. */
export interface PermissionRule {
  list: RuleList;
  /** The rule as written. */
  text: string;
  /** The Claude Code tool name (`Bash`, `Read`, `mcp__github__create_issue`, `*`). */
  tool: string;
  /** What is inside the parentheses; absent for a bare tool name (and for `Tool(*)`). */
  specifier?: string;
  /** The file it was read from (or what else set it: `-c override`). */
  source: string;
  scope: RuleScope;
  /** The folder a `/path` pattern starts from: the project root, or `~/.claude` for the user's. */
  root: string;
}

/**
 * Claude Code's tool names a rule may use besides `mcp__…` names, and the capabilities each
 * stands for (`match.ts`): `Bash` every capability that runs a command line, `Edit` every one
 * that changes files, `Read` every one that reads them.
 */
export const RULE_TOOL_CAPABILITIES: Readonly<Record<string, readonly string[]>> = {
  Bash: ["shell.run", "shell.start", "shell.monitor"],
  PowerShell: ["shell.run", "shell.start"],
  Read: ["fs.read", "fs.grep", "fs.glob", "fs.list", "image.view", "fs.str_replace_editor:view"],
  Edit: [
    "fs.edit",
    "fs.write",
    "fs.apply_patch",
    "fs.notebook_edit",
    "fs.str_replace_editor",
    "undo_edit",
  ],
  Write: ["fs.write"],
  MultiEdit: ["fs.edit"],
  NotebookEdit: ["fs.notebook_edit"],
  Glob: ["fs.glob"],
  Grep: ["fs.grep"],
  LS: ["fs.list"],
  WebFetch: ["web.fetch"],
  WebSearch: ["web.search"],
  Agent: ["agent.run", "agent.spawn"],
  Task: ["agent.run", "agent.spawn"],
  Skill: ["skill.load"],
  TodoWrite: ["todo.write"],
};

/** The tool names a rule may use besides `mcp__…` names: `*` and those above. */
const RULE_TOOLS: ReadonlySet<string> = new Set(["*", ...Object.keys(RULE_TOOL_CAPABILITIES)]);

const SHAPE = /^([A-Za-z_*][\w*-]*)(?:\((.*)\))?$/s;

/**
 * Parses `text` into its tool and specifier, or throws a `ConfigError` naming `where` (the file
 * and key) and the fix.
 */
export function parseRule(
  text: string,
  where: { list: RuleList; source: string; scope: RuleScope; root: string; key?: string },
): PermissionRule {
  const problem = (why: string, hint: string) =>
    new ConfigError(
      `Skipped the ${where.list} rule "${text}" in ${where.source}${
        where.key ? ` (${where.key})` : ""
      }: ${why}`,
      { hint },
    );
  const m = SHAPE.exec(text.trim());
  if (!m) {
    throw problem(
      "it is not Tool or Tool(specifier)",
      'Write a tool name, optionally with a specifier in parentheses: "Bash(npm run test:*)"',
    );
  }
  const [, tool, inner] = m;
  const specifier = inner === undefined || inner.trim() === "*" || inner.trim() === ""
    ? undefined
    : inner.trim();
  if (!tool.startsWith("mcp__") && !RULE_TOOLS.has(tool)) {
    throw problem(
      `"${tool}" is not a tool name rules know`,
      `Use one of ${[...RULE_TOOLS].join(", ")} or an mcp__server__tool name`,
    );
  }
  if (specifier !== undefined && (tool === "Write" || tool === "Glob")) {
    throw problem(
      `${tool}(...) path rules are not used`,
      "Write the path rule as Edit(...) for changes or Read(...) for reads",
    );
  }
  if (tool === "WebFetch" && specifier !== undefined && !specifier.startsWith("domain:")) {
    throw problem(
      "a WebFetch rule names a domain",
      'Write it as "WebFetch(domain:example.com)" (or domain:*.example.com)',
    );
  }
  const { list, source, scope, root } = where;
  return { list, text: text.trim(), tool, specifier, source, scope, root };
}

/** The rules of `lists` (`{allow, ask, deny}` string arrays) and a warning for each bad one. */
export function parseRuleLists(
  lists: unknown,
  where: { source: string; scope: RuleScope; root: string; keyPrefix: string },
): { rules: PermissionRule[]; warnings: string[] } {
  const rules: PermissionRule[] = [];
  const warnings: string[] = [];
  if (lists === undefined) return { rules, warnings };
  if (typeof lists !== "object" || lists === null || Array.isArray(lists)) {
    warnings.push(
      `Skipped "${where.keyPrefix}" in ${where.source}: it is not an object of allow, ask and ` +
        'deny lists; write it as {"allow": [...], "ask": [...], "deny": [...]}',
    );
    return { rules, warnings };
  }
  const o = lists as Record<string, unknown>;
  for (const list of RULE_LISTS) {
    const key = `${where.keyPrefix}.${list}`;
    const value = o[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      warnings.push(`Skipped "${key}" in ${where.source}: it is not a list of rule strings`);
      continue;
    }
    for (const item of value) {
      if (typeof item !== "string") {
        warnings.push(
          `Skipped an entry of "${key}" in ${where.source}: rules are strings such as "Bash(npm test)"`,
        );
        continue;
      }
      try {
        rules.push(parseRule(item, { ...where, list, key }));
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        warnings.push(setupWarning(error));
      }
    }
  }
  return { rules, warnings };
}
