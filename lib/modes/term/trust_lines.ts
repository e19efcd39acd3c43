/**
 * A project's runnable definitions as the user is asked to trust them (by `interpreter trust`
 * and by the REPL at start): kind, name, what runs and the file, with what the repository wrote
 * shown with control characters made visible.
 */
import { terminalText } from "../../approval/visible.ts";
import type { RunnableDefinition } from "../../config/project_definitions.ts";
import { DEFINITION_KIND_NAMES } from "../../session/definition_kinds.ts";

export { definitionCount, trustEffect } from "../../session/definition_kinds.ts";

/** Each definition in two lines (more for a command of several lines), numbered from 1. */
export function definitionLines(definitions: readonly RunnableDefinition[]): string[] {
  const lines: string[] = [];
  for (const [i, definition] of definitions.entries()) {
    const [first, ...rest] = terminalText(definition.command).split("\n");
    const head = `  ${i + 1}. ${DEFINITION_KIND_NAMES[definition.kind][0]} ${
      terminalText(definition.name)
    }: `;
    lines.push(head + first, ...rest.map((line) => `${" ".repeat(head.length)}${line}`));
    lines.push(`     from ${terminalText(definition.source)}`);
  }
  return lines;
}

/** Whether `answer` says yes. */
export function saidYes(answer: string | null): boolean {
  return /^y(es)?$/i.test(answer?.trim() ?? "");
}
