import assert from "node:assert/strict";
import type { Harness, HarnessTool } from "../../harness/types.ts";
import { agentPromptVars, withAgentTypes } from "./listing.ts";
import { agentModel } from "./model.ts";
import { agentTools, harnessTools, restrictHarness } from "./tools.ts";
import type { AgentDefinition } from "./types.ts";

const tool = (name: string, capability: string, description = ""): HarnessTool => ({
  declaration: { name, description, parameters: {} },
  capability,
  args: {},
  fixedArgs: {},
  scale: {},
  result: { template: "" },
} as unknown as HarnessTool);

const HARNESS = {
  id: "h",
  tools: [
    tool("Agent", "agent.run", "Start one.\n\nAgent types:\n- general: all work\n\nMore."),
    tool("Read", "fs.read"),
    tool("Bash", "shell.run"),
    tool("Write", "fs.write"),
    tool("Grep", "fs.grep"),
  ],
} as unknown as Harness;

const agent = (extra: Partial<AgentDefinition>): AgentDefinition => ({
  name: "reviewer",
  scope: "project",
  source: "/p/.claude/agents/reviewer.md",
  vendor: "claude",
  description: "Reviews\ncode",
  prompt: "Review.",
  ...extra,
});

Deno.test("vendor tool names of every vendor map onto capabilities; unknown ones are named", () => {
  const t = agentTools(agent({ tools: ["Read", "grep_search", "bash", "Frobnicate", "Agent"] }));
  assert.deepEqual([...t.allowed!].sort().slice(0, 3), ["fs.grep", "fs.read", "shell.list"]);
  assert.deepEqual(t.unknown, ["Frobnicate"]);
  assert.equal(t.mcp, false);
  assert.equal(agentTools(agent({ tools: ["Read", "mcp__github__*"] })).mcp, true);
  assert.equal(agentTools(agent({})).mcp, true, "no tools list inherits every tool");
});

Deno.test("a restricted harness offers only the tools named, never a sub-agent tool", () => {
  const only = restrictHarness(HARNESS, agentTools(agent({ tools: ["Read", "Grep", "Agent"] })));
  assert.deepEqual(only.tools.map((t) => t.declaration.name), ["Read", "Grep"]);
  const all = restrictHarness(HARNESS, agentTools(agent({ disallowedTools: ["Write"] })));
  assert.deepEqual(all.tools.map((t) => t.declaration.name), ["Read", "Bash", "Grep"]);
});

Deno.test("the listings: Claude Code's type lines, Gemini's entries, a tool description", () => {
  const agents = [agent({ tools: ["Read", "Grep"] })];
  const vars = agentPromptVars(HARNESS, agents);
  assert.match(vars.agentTypes!, /\n- reviewer: Reviews code \(Tools: Read, Grep\)$/);
  assert.equal(
    vars.subagentEntries,
    "  <subagent>\n    <name>reviewer</name>\n    <description>Reviews code</description>\n" +
      "  </subagent>\n",
  );
  const offered = withAgentTypes(HARNESS, agents);
  assert.equal(
    offered.tools[0].declaration.description,
    "Start one.\n\nAgent types:\n- general: all work\n- reviewer: Reviews code (tools: Read, Grep)" +
      "\n\nMore.",
  );
  assert.equal(withAgentTypes(HARNESS, []), HARNESS, "no definitions: the same harness");
  assert.deepEqual(agentPromptVars(HARNESS, []), { agentTypes: "", subagentEntries: "" });
});

Deno.test("a model alias picks the provider's newest of its family, else inherits with a note", () => {
  const offered = ["claude-sonnet-4-5", "claude-sonnet-4-10", "claude-haiku-4-5"];
  assert.deepEqual(agentModel("sonnet", "claude-opus-5", offered), { model: "claude-sonnet-4-10" });
  assert.deepEqual(agentModel(undefined, "m", offered), { model: "m" });
  assert.deepEqual(agentModel("anthropic/claude-haiku-4-5", "m", offered), {
    model: "claude-haiku-4-5",
  });
  const missing = agentModel("opus", "fake-model", []);
  assert.equal(missing.model, "fake-model");
  assert.match(missing.note!, /asks for the model "opus", which this provider does not offer/);
});

Deno.test("Codex's spawn_agent gets an agent_type argument naming the defined agents", () => {
  const spawn = {
    ...tool("spawn_agent", "agent.spawn"),
    declaration: {
      name: "spawn_agent",
      description: "Start one.",
      parameters: { type: "object", properties: { message: { type: "string" } } },
    },
    args: { message: "prompt" },
  } as unknown as HarnessTool;
  const harness = { ...HARNESS, tools: [...HARNESS.tools, spawn] } as Harness;
  const offered = withAgentTypes(harness, [agent({ tools: ["Read"] })]).tools.at(-1)!;
  assert.deepEqual(offered.args, { message: "prompt", agent_type: "subagent_type" });
  const field = (offered.declaration.parameters.properties as Record<string, {
    enum: string[];
    description: string;
  }>).agent_type;
  assert.deepEqual(field.enum, ["reviewer"]);
  assert.match(field.description, /\n- reviewer: Reviews code \(tools: Read\)$/);
  assert.equal(offered.declaration.description, "Start one.");
});

Deno.test("a reading agent in a harness that reads through the shell gets it, read-only", () => {
  const codex = {
    tools: [tool("exec_command", "shell.run"), tool("apply_patch", "fs.edit")],
  } as unknown as Harness;
  const got = harnessTools(codex, agent({ tools: ["Read", "Grep"] }));
  assert.equal(got.readOnlyShell, true);
  assert.deepEqual(restrictHarness(codex, got.tools).tools.map((t) => t.declaration.name), [
    "exec_command",
  ]);
  assert.equal(harnessTools(HARNESS, agent({ tools: ["Read", "Grep"] })).readOnlyShell, false);
  assert.equal(harnessTools(codex, agent({ tools: ["Edit"] })).readOnlyShell, false);
});
