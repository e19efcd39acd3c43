import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { agentWorkflow } from "./agent_task.ts";
import type { ToolContext } from "./capability.ts";
import { tempWorkspace } from "./_test_workspace.ts";

type Runner = NonNullable<ToolContext["runSubagent"]>;

/** A runner that answers each prompt with `report: <prompt>`, failing on prompts with FAIL. */
function echoRunner(seen: string[], failOnce = { left: 1 }): Runner {
  return (req) => {
    seen.push(req.prompt);
    if (req.prompt.includes("FAIL") && failOnce.left-- > 0) {
      return Promise.resolve({ finalText: "it broke", toolCalls: 0, status: "failed" });
    }
    return Promise.resolve({
      finalText: `report: ${req.prompt}`,
      toolCalls: 1,
      status: "completed",
    });
  };
}

Deno.test("Workflow runs the script's steps in order, each reading the one before and the args", async () => {
  await using ws = await tempWorkspace({
    "steps.txt": "look at {{args}}\n---\nfix what {{previous}} says\n",
  });
  const seen: string[] = [];
  ws.ctx.runSubagent = echoRunner(seen);
  const out = await agentWorkflow.run(
    { scriptPath: "steps.txt", args: "src/a.ts", name: "triage" },
    ws.ctx,
  );
  assert.deepEqual(seen, ["look at src/a.ts", "fix what report: look at src/a.ts says"]);
  assert.equal(out.status, "completed");
  assert.equal(out.completedSteps, 2);
  assert.equal(out.report, "report: fix what report: look at src/a.ts says");
  assert.match(out.text, /^Workflow triage \(wf_[a-z0-9-]+\): completed, 2 of 2 steps done\./);
});

Deno.test("Workflow stops at a failed step and resumeFromRunId goes on from it", async () => {
  await using ws = await tempWorkspace();
  const seen: string[] = [];
  ws.ctx.runSubagent = echoRunner(seen);
  const script = "one\n---\ntwo FAIL {{previous}}\n---\nthree";
  const failed = await agentWorkflow.run({ script, args: { n: 1 } }, ws.ctx);
  assert.equal(failed.status, "failed");
  assert.equal(failed.completedSteps, 1);
  assert.match(failed.text, /Did not finish: it broke/);
  const done = await agentWorkflow.run({ resumeFromRunId: failed.runId }, ws.ctx);
  assert.equal(done.status, "completed");
  assert.deepEqual(seen, ["one", "two FAIL report: one", "two FAIL report: one", "three"]);
});

Deno.test("Workflow refuses a script with no steps, both sources, and an unknown run", async () => {
  await using ws = await tempWorkspace();
  ws.ctx.runSubagent = echoRunner([]);
  await assert.rejects(agentWorkflow.run({ script: "\n---\n" }, ws.ctx), ToolError);
  await assert.rejects(agentWorkflow.run({ script: "a", scriptPath: "b" }, ws.ctx), /Both script/);
  await assert.rejects(
    agentWorkflow.run({ resumeFromRunId: "wf_000000" }, ws.ctx),
    /no workflow run/,
  );
  await assert.rejects(
    agentWorkflow.run({ scriptPath: "missing.txt" }, ws.ctx),
    /Cannot read the script/,
  );
});
