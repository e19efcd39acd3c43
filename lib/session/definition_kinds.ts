/**
 * How each kind of runnable definition a project brings is named to the user (`interpreter
 * trust`, the REPL's question at start, the warning of a session that leaves some off).
 */
import type { RunnableDefinition } from "../config/project_definitions.ts";

/** Each kind's name, one and many. */
export const DEFINITION_KIND_NAMES: Readonly<
  Record<RunnableDefinition["kind"], readonly [one: string, many: string]>
> = Object.freeze({
  hook: ["hook", "hooks"],
  mcp_server: ["MCP server", "MCP servers"],
  command: ["command with shell pre-execution", "commands with shell pre-execution"],
  allowed_tools: ["command's allowed-tools", "commands' allowed-tools"],
  allow_rule: ["allow rule", "allow rules"],
  status_line: ["status-line command", "status-line commands"],
  env: ["env setting", "env settings"],
});

/** "1 hook and 2 MCP servers", "1 hook, 1 allow rule and 2 MCP servers". */
export function definitionCount(definitions: readonly RunnableDefinition[]): string {
  const counts = new Map<RunnableDefinition["kind"], number>();
  for (const d of definitions) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
  return listed(
    [...counts].map(([kind, n]) => `${n} ${DEFINITION_KIND_NAMES[kind][n === 1 ? 0 : 1]}`),
  );
}

/**
 * The definitions named kind by kind: `MCP server "proj"`, `allow rules "Bash(rm:*)", "Read"`,
 * in the order the kinds first appear.
 */
export function definitionNames(definitions: readonly RunnableDefinition[]): string {
  const names = new Map<RunnableDefinition["kind"], string[]>();
  for (const d of definitions) names.set(d.kind, [...names.get(d.kind) ?? [], `"${d.name}"`]);
  return listed(
    [...names].map(([kind, list]) =>
      `${DEFINITION_KIND_NAMES[kind][list.length === 1 ? 0 : 1]} ${list.join(", ")}`
    ),
  );
}

const RUN_OUTSIDE =
  "hooks, MCP servers and status-line commands run as your own commands, outside the sandbox";
const UNASKED = "allowed-tools and allow rules let tool calls run without a question";

/** What trusting a kind does, for the sentence that asks. */
const EFFECT: Record<RunnableDefinition["kind"], string> = {
  hook: RUN_OUTSIDE,
  mcp_server: RUN_OUTSIDE,
  status_line: RUN_OUTSIDE,
  command: "commands' shell pre-execution runs in the sandbox",
  allowed_tools: UNASKED,
  allow_rule: UNASKED,
  env: "env settings reach the commands that run",
};

/**
 * What trusting `definitions` does, after "once trusted": "they run as your own commands,
 * outside the sandbox" for hooks, MCP servers and status lines alone; else kind by kind.
 */
export function trustEffect(definitions: readonly RunnableDefinition[]): string {
  const kinds = new Set(definitions.map((d) => d.kind));
  if ([...kinds].every((k) => k === "hook" || k === "mcp_server" || k === "status_line")) {
    return "they run as your own commands, outside the sandbox";
  }
  return `they take effect: ${listed([...new Set([...kinds].map((k) => EFFECT[k]))])}`;
}

/** "a", "a and b", "a, b and c". */
function listed(parts: readonly string[]): string {
  return parts.length <= 1
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}
