import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { advertisedTools, deferredToolNames } from "./deferred.ts";
import { codeModeView } from "./code_mode.ts";
import { loadHarness } from "./load.ts";
import { toolsForSession } from "./session_tools.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses", import.meta.url));
const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

Deno.test("toolsForSession() keeps `when = mcp_servers` tools only when the session has servers", async () => {
  const native = await loadHarness("native", { builtinDir: BUILTIN });
  const without = toolsForSession(native, { mcpServers: false });
  assert.deepEqual(names(advertisedTools(without, new Map())), [
    "exec_command",
    "write_stdin",
    "apply_patch",
    "update_plan",
    "request_user_input",
    "view_image",
    "spawn_agent",
    "send_input",
    "wait_agent",
    "close_agent",
    "resume_agent",
    "create_goal",
    "get_goal",
    "update_goal",
  ]);
  const withServers = toolsForSession(native, { mcpServers: true });
  assert.equal(withServers, native, "nothing to drop: the same harness");
  assert.ok(names(advertisedTools(withServers, new Map())).includes("read_mcp_resource"));
});

Deno.test("toolsForSession() drops Claude Code's deferred resource tools from the deferred list too", async () => {
  const claude = await loadHarness("claude-code", { builtinDir: BUILTIN });
  const mcp = ["ListMcpResourcesTool", "ReadMcpResourceTool"];
  const without = deferredToolNames(toolsForSession(claude, { mcpServers: false }), new Map());
  assert.deepEqual(without.filter((n) => mcp.includes(n)), []);
  const withServers = deferredToolNames(toolsForSession(claude, { mcpServers: true }), new Map());
  assert.deepEqual(withServers.filter((n) => mcp.includes(n)), mcp);
});

Deno.test("Qwen Code's read_mcp_resource is deferred in every session, as in the capture", async () => {
  const qwen = await loadHarness("qwen-code", { builtinDir: BUILTIN });
  const deferred = deferredToolNames(toolsForSession(qwen, { mcpServers: false }), new Map());
  assert.ok(deferred.includes("read_mcp_resource"));
});

Deno.test("toolsForSession() leaves the questions to the user out where nobody answers, code mode too", async () => {
  const native = await loadHarness("native", { builtinDir: BUILTIN });
  const asks = (h: typeof native) =>
    h.tools.filter((t) => t.capability === "user.ask").map((t) => t.declaration.name);
  const answered = toolsForSession(native, { mcpServers: false, answersQuestions: true });
  assert.deepEqual(asks(answered), ["request_user_input"]);
  assert.deepEqual(asks(codeModeView(answered, "gpt-6*")), [
    "request_user_input",
    "request_user_input_async",
  ]);
  assert.deepEqual(
    codeModeView(answered, "gpt-6*").tools.filter((t) => t.capability === "user.ask")
      .map((t) => [t.declaration.namespace, t.nested === true]),
    [["functions", false], ["functions", false]],
    "sent in the functions namespace; the classic one is not nested beside them",
  );
  const unanswered = toolsForSession(native, { mcpServers: false, answersQuestions: false });
  assert.deepEqual(asks(unanswered), []);
  assert.deepEqual(asks(codeModeView(unanswered, "gpt-6*")), []);
});

Deno.test("toolsForSession() leaves the image tools out for a model that takes no images", async () => {
  for (const id of ["native", "kimi-cli"]) {
    const h = await loadHarness(id, { builtinDir: BUILTIN });
    const imageTools = (view: typeof h) =>
      view.tools.filter((t) => t.capability === "image.view").length;
    assert.equal(imageTools(toolsForSession(h, { mcpServers: false })), 1, id);
    assert.equal(imageTools(toolsForSession(h, { mcpServers: false, takesImages: true })), 1, id);
    assert.equal(imageTools(toolsForSession(h, { mcpServers: false, takesImages: false })), 0, id);
  }
});
