import assert from "node:assert/strict";
import { ARENA_COMMAND } from "./arena_command.ts";
import { commandSummaries } from "./commands.ts";
import { GOAL_COMMAND } from "./goal_command.ts";
import { HOOKS_COMMAND } from "./hooks_command.ts";
import { IMAGE_COMMAND } from "./image_command.ts";
import { INIT_COMMAND } from "./init_command.ts";
import { MCP_COMMAND } from "./mcp_command.ts";
import { MODEL_COMMAND } from "./model_command.ts";
import { PERMISSIONS_COMMAND } from "./permissions_command.ts";
import { REWIND_COMMANDS } from "./rewind_command.ts";
import { SKILLS_COMMAND } from "./skills_command.ts";
import { STATUS_COMMAND } from "./status_command.ts";

Deno.test("the commands loaded on first use are listed with their modules' own names and summaries", () => {
  const listed = new Map(commandSummaries().map((c) => [c.name, c.summary]));
  const modules = [
    MODEL_COMMAND,
    PERMISSIONS_COMMAND,
    ...REWIND_COMMANDS,
    INIT_COMMAND,
    SKILLS_COMMAND,
    MCP_COMMAND,
    HOOKS_COMMAND,
    GOAL_COMMAND,
    IMAGE_COMMAND,
    ARENA_COMMAND,
    STATUS_COMMAND,
  ];
  for (const command of modules) {
    assert.equal(listed.get(command.name), command.summary, `/${command.name}`);
  }
  // Control: a command /help does not list is not found under another's name.
  assert.equal(listed.get("no-such-command"), undefined);
});
