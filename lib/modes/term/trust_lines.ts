/**
 * A project's runnable definitions as the user is asked to trust them (by `interpreter trust`
 * and by the REPL at start): kind, name, what runs and the file, with what the repository wrote
 * shown with control characters made visible.
 */
import { terminalText } from "../../approval/visible.ts";
import type { RunnableDefinition } from "../../config/project_definitions.ts";

const KIND: Record<RunnableDefinition["kind"], string> = {
  hook: "hook",
  mcp_server: "MCP server",
};

/** Each definition in two lines (more for a command of several lines), numbered from 1. */
export function definitionLines(definitions: readonly RunnableDefinition[]): string[] {
  const lines: string[] = [];
  for (const [i, definition] of definitions.entries()) {
    const [first, ...rest] = terminalText(definition.command).split("\n");
    const head = `  ${i + 1}. ${KIND[definition.kind]} ${terminalText(definition.name)}: `;
    lines.push(head + first, ...rest.map((line) => `${" ".repeat(head.length)}${line}`));
    lines.push(`     from ${terminalText(definition.source)}`);
  }
  return lines;
}

/** "1 hook and 2 MCP servers". */
export function definitionCount(definitions: readonly RunnableDefinition[]): string {
  const hooks = definitions.filter((d) => d.kind === "hook").length;
  const servers = definitions.length - hooks;
  return [
    ...(hooks ? [`${hooks} hook${hooks === 1 ? "" : "s"}`] : []),
    ...(servers ? [`${servers} MCP server${servers === 1 ? "" : "s"}`] : []),
  ].join(" and ");
}

/** Whether `answer` says yes. */
export function saidYes(answer: string | null): boolean {
  return /^y(es)?$/i.test(answer?.trim() ?? "");
}
