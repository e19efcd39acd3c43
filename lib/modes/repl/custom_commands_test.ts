import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import type { CustomCommand } from "../../session/custom_commands.ts";
import { commandLines } from "./custom_commands.ts";

function command(over: Partial<CustomCommand>): CustomCommand {
  return {
    name: "fixit",
    aliases: [],
    vendor: "claude",
    scope: "project",
    source: "/repo/.claude/commands/fixit.md",
    syntax: "claude",
    argumentNames: [],
    allowedTools: [],
    modelInvocable: true,
    body: "",
    bodyLine: 1,
    ...over,
  };
}

Deno.test("commandLines() shows each command's hint, description, vendor, scope and file", () => {
  const lines = commandLines(
    {
      commands: [
        command({ argumentHint: "[file]", description: "Fix a file" }),
        command({
          name: "prompts:draft",
          vendor: "codex",
          scope: "user",
          source: "/home/u/.codex/prompts/draft.md",
          description: "Draft\u001b[31m",
        }),
      ],
      warnings: ['The command "x" of a is not used'],
    },
    "/repo",
    makeStyle(false),
  );
  assert.deepEqual(lines, [
    "/fixit [file]    Fix a file (Claude Code, project: .claude/commands/fixit.md)",
    "/prompts:draft   Draft\\u{1b}[31m (Codex, user: /home/u/.codex/prompts/draft.md)",
    'warning: The command "x" of a is not used',
  ]);
});
