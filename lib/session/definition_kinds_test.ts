import assert from "node:assert/strict";
import type { RunnableDefinition } from "../config/project_definitions.ts";
import { definitionCount, definitionNames, trustEffect } from "./definition_kinds.ts";

const def = (kind: RunnableDefinition["kind"], name: string): RunnableDefinition => ({
  kind,
  name,
  command: name,
  source: "/r/.claude/settings.json",
  key: `${kind}:${name}`,
});

Deno.test("definitions of every kind are counted, named and explained kind by kind", () => {
  const defs = [
    def("mcp_server", "proj"),
    def("allow_rule", "Bash(npm run test:*)"),
    def("allow_rule", "Read"),
    def("command", "fixit"),
    def("env", "FOO"),
  ];
  assert.equal(
    definitionCount(defs),
    "1 MCP server, 2 allow rules, 1 command with shell pre-execution and 1 env setting",
  );
  assert.equal(
    definitionNames(defs.slice(0, 3)),
    'MCP server "proj" and allow rules "Bash(npm run test:*)", "Read"',
  );
  assert.equal(
    trustEffect(defs.slice(0, 2)),
    "they take effect: hooks, MCP servers and status-line commands run as your own commands, " +
      "outside the sandbox and allowed-tools and allow rules let tool calls run without a question",
  );
  // Control: hooks and MCP servers alone keep the short sentence.
  assert.equal(
    trustEffect([def("hook", "Stop"), def("mcp_server", "proj")]),
    "they run as your own commands, outside the sandbox",
  );
});
