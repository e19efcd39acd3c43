import { BASE_FILES } from "./_test_harness.ts";

/**
 * A harness spec with `run` always sent, `ToolSearch` (tools.search), `tool_call` (tools.call)
 * and two deferred tools, `later` (shell.run) and `Plan` (plan.update). Test helper.
 */
export const DEFERRED_SPEC = `
id = "d"
label = "Deferred"
system_prompt = "prompts/system.md"
wire_apis = ["chat"]
reasoning_replay = "none"
error_template = "Error: {message}\\n{hint}"
unknown_tool_template = "No tool named {name}"

[[tools]]
declaration = "tools/run.json"
capability = "shell.run"
args = { command = "command", dir = "cwd", note = "" }
result = { template = "exit {exit_code}\\n{output}" }

[[tools]]
declaration = "tools/later.json"
capability = "shell.run"
deferred = true
args = { command = "command" }
result = { template = "later said {output}" }

[[tools]]
declaration = "tools/plan.json"
capability = "plan.update"
deferred = true
args = { plan = "plan" }
result = { template = "Plan updated" }

[[tools]]
declaration = "tools/search.json"
capability = "tools.search"
args = { query = "query", max_results = "max_results" }
result = { template = "Loaded: {names}\\nUnknown: {missing}", empty_output = "none" }

[[tools]]
declaration = "tools/call.json"
capability = "tools.call"
args = { name = "name", arguments = "arguments" }
result = { template = "{output}" }
`;

const declaration = (name: string, properties: Record<string, unknown>, required: string[]) =>
  JSON.stringify({
    name,
    description: `The ${name} tool.`,
    parameters: { type: "object", properties, required },
  });

/** Files of the `d` harness besides its spec. Test helper. */
export const DEFERRED_FILES: Record<string, string> = {
  ...BASE_FILES,
  "prompts/system.md": "Deferred:\n{{deferred_tools}}",
  "tools/later.json": declaration("later", { command: { type: "string" } }, ["command"]),
  "tools/plan.json": declaration("Plan", { plan: { type: "array" } }, ["plan"]),
  "tools/search.json": declaration(
    "ToolSearch",
    { query: { type: "string" }, max_results: { type: "number" } },
    ["query"],
  ),
  "tools/call.json": declaration(
    "tool_call",
    { name: { type: "string" }, arguments: { type: "object" } },
    ["name", "arguments"],
  ),
};
