import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import { agentsLines } from "./agents_command.ts";

Deno.test("/agents lists the harness's built-in types, then each defined one with its file", () => {
  const lines = agentsLines(
    "claude-code",
    [{
      name: "reviewer",
      scope: "project",
      source: "/repo/.claude/agents/reviewer.md",
      vendor: "claude",
      description: "Reviews code",
      prompt: "Review.",
      tools: ["Read", "Grep"],
      model: "sonnet",
    }, {
      name: "auditor",
      scope: "user",
      source: "/home/me/.codex/agents/auditor.toml",
      vendor: "codex",
      description: "Audits",
      prompt: "Audit.",
      readOnly: true,
    }],
    "/repo",
    makeStyle(false),
  );
  assert.deepEqual(lines, [
    "Built-in (claude-code): general-purpose, Explore, Plan",
    "reviewer  Reviews code",
    "  project, Claude Code: .claude/agents/reviewer.md  (tools: Read, Grep; model: sonnet)",
    "auditor  Audits",
    "  user, Codex: /home/me/.codex/agents/auditor.toml  (tools: all; read-only)",
  ]);
  const none = agentsLines("pi", [], "/repo", makeStyle(false));
  assert.equal(
    none[0],
    "Built-in (pi): its general sub-agent, where the harness has a sub-agent tool",
  );
  assert.match(none[1], /^No sub-agents defined \(in \.agents\/agents, \.claude\/agents/);
});
