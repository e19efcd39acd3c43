import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { agentRun } from "./agent_task.ts";
import type { ToolContext } from "./capability.ts";
import { tempWorkspace } from "./_test_workspace.ts";

type Runner = NonNullable<ToolContext["runSubagent"]>;
type Request = Parameters<Runner>[0];

Deno.test("agentRun() passes the task to the runner and returns its final text", async () => {
  await using ws = await tempWorkspace();
  const seen: Request[] = [];
  ws.ctx.runSubagent = (req) => {
    seen.push(req);
    return Promise.resolve({ finalText: "found 3 files", toolCalls: 2, status: "completed" });
  };
  const out = await agentRun.run(
    { prompt: "Find the config files", description: "find configs", subagent_type: "Explore" },
    ws.ctx,
  );
  assert.deepEqual(seen.map(({ progress: _, ...req }) => req), [
    {
      prompt: "Find the config files",
      description: "find configs",
      agentType: "Explore",
      callId: ws.ctx.callId,
    },
  ]);
  assert.deepEqual(out, {
    finalText: "found 3 files",
    description: "find configs",
    subagentType: "Explore",
    toolCalls: 2,
    status: "completed",
    agentId: "",
  });
});

Deno.test("agentRun() fails when sub-agents are not available", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    () => agentRun.run({ prompt: "x" }, ws.ctx),
    (err) =>
      err instanceof ToolError && err.message === "Sub-agents are not available in this mode",
  );
});

Deno.test("agentRun() turns a sub-agent that did not finish into a ToolError", async () => {
  await using ws = await tempWorkspace();
  ws.ctx.runSubagent = () =>
    Promise.resolve({ finalText: "provider down", toolCalls: 0, status: "failed" });
  await assert.rejects(
    () => agentRun.run({ prompt: "x" }, ws.ctx),
    (err) =>
      err instanceof ToolError &&
      err.message === "Sub-agent did not finish (failed): provider down",
  );
});

Deno.test("agentRun() rethrows the abort when the sub-agent was interrupted", async () => {
  const controller = new AbortController();
  await using ws = await tempWorkspace({}, { signal: controller.signal });
  ws.ctx.runSubagent = () => {
    controller.abort(new Error("stop"));
    return Promise.resolve({ finalText: "", toolCalls: 0, status: "aborted" });
  };
  await assert.rejects(() => agentRun.run({ prompt: "x" }, ws.ctx), /stop/);
});

Deno.test("agentRun() passes the sub-agent's steps on as the call's progress", async () => {
  await using ws = await tempWorkspace();
  ws.ctx.runSubagent = (req) => {
    req.progress?.({ stream: "status", text: "Bash ls\n" });
    return Promise.resolve({ finalText: "done", toolCalls: 1, status: "completed" });
  };
  await agentRun.run({ prompt: "look around" }, ws.ctx);
  assert.deepEqual(ws.progress, [{ stream: "status", text: "Bash ls\n" }]);
});
