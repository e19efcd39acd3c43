/**
 * A project's runnable definitions as the user is asked to trust them (by `interpreter trust`
 * and by the REPL at start): kind, name, what runs and the file, with what the repository wrote
 * shown with control characters made visible.
 */
import { terminalText } from "../../approval/visible.ts";
import type { RunnableDefinition } from "../../config/project_definitions.ts";

const KIND: Record<RunnableDefinition["kind"], [one: string, many: string]> = {
  hook: ["hook", "hooks"],
  mcp_server: ["MCP server", "MCP servers"],
  command: ["command with shell pre-execution", "commands with shell pre-execution"],
  allowed_tools: ["command's allowed-tools", "commands' allowed-tools"],
  allow_rule: ["allow rule", "allow rules"],
  status_line: ["status-line command", "status-line commands"],
  env: ["env value", "env values"],
};

/** Each definition in two lines (more for a command of several lines), numbered from 1. */
export function definitionLines(definitions: readonly RunnableDefinition[]): string[] {
  const lines: string[] = [];
  for (const [i, definition] of definitions.entries()) {
    const [first, ...rest] = terminalText(definition.command).split("\n");
    const head = `  ${i + 1}. ${KIND[definition.kind][0]} ${terminalText(definition.name)}: `;
    lines.push(head + first, ...rest.map((line) => `${" ".repeat(head.length)}${line}`));
    lines.push(`     from ${terminalText(definition.source)}`);
  }
  return lines;
}

/** "1 hook and 2 MCP servers", "1 hook, 1 allow rule and 2 MCP servers". */
export function definitionCount(definitions: readonly RunnableDefinition[]): string {
  const counts = new Map<RunnableDefinition["kind"], number>();
  for (const d of definitions) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, n]) => `${n} ${KIND[kind][n === 1 ? 0 : 1]}`);
  return parts.length <= 1
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** Whether `answer` says yes. */
export function saidYes(answer: string | null): boolean {
  return /^y(es)?$/i.test(answer?.trim() ?? "");
}
