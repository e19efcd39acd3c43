import { allowAll } from "../loop/_test_loop.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import type { Harness, HarnessTool } from "../harness/types.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent } from "../loop/events.ts";
import type { Block, Message } from "../model/message.ts";
import { emptyUsage, systemText } from "../model/message.ts";
import type { ToolProgress, TurnContext } from "../tools/types.ts";
import { scriptedProvider } from "../loop/_test_loop.ts";
import { makeSubagentRunner } from "./subagent.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** A provider answering each request with the next scripted reply, one token per reply. */
const call = (id: string, name: string, args: unknown): Block => ({
  type: "tool_call",
  id,
  name,
  args,
});

/** The native harness plus a `Task` tool mapped onto `agent.run`. */
async function harnessWithTask(): Promise<Harness> {
  const native = await loadHarness("native", { builtinDir: HARNESSES });
  const task: HarnessTool = {
    declaration: {
      name: "Task",
      description: "Run a sub-agent",
      parameters: {
        type: "object",
        properties: { prompt: { type: "string" }, description: { type: "string" } },
        required: ["prompt"],
      },
    },
    capability: "agent.run",
    args: { prompt: "prompt", description: "description" },
    fixedArgs: {},
    scale: {},
    result: { template: "{final_text}\n(tool uses: {tool_calls})" },
  };
  return { ...native, tools: [...native.tools, task] };
}

async function context(): Promise<TurnContext> {
  const cwd = await Deno.makeTempDir({ prefix: "oi_subagent_" });
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  return {
    cwd,
    signal: new AbortController().signal,
    env,
    state: new Map([["parent", 1]]),
    fs: inProcessFs,
  };
}

Deno.test("makeSubagentRunner() runs a nested turn that executes a real command", async () => {
  const ctx = await context();
  const harness = await harnessWithTask();
  const { provider, requests } = scriptedProvider([
    [call("s1", "exec_command", { cmd: "echo nested-$((6*7)) > out.txt; cat out.txt" })],
    [{ type: "text", text: "sub done" }],
  ]);
  const parent = { model: "m", system: systemText("sys"), usage: emptyUsage() };
  const seen: Array<[string, string]> = [];
  const runner = makeSubagentRunner(ctx, {
    provider,
    harness,
    parent,
    toolHooks: allowAll,
    emit: (e, label) => seen.push([e.type, label]),
  });
  const progress: ToolProgress[] = [];
  const result = await runner({
    prompt: "write the file",
    description: "writer",
    progress: (chunk) => progress.push(chunk),
  });
  assert.deepEqual(result, { finalText: "sub done", toolCalls: 1, status: "completed" });
  assert.deepEqual(progress, [{
    stream: "status",
    text: "exec_command echo nested-$((6*7)) > out.txt; cat out.txt\n",
  }], "a line per step, as the sub-agent takes it");
  assert.equal(await Deno.readTextFile(`${ctx.cwd}/out.txt`), "nested-42\n");
  assert.deepEqual(requests[0].system, systemText("sys"));
  assert.deepEqual(requests[0].messages, [
    { role: "user", blocks: [{ type: "text", text: "write the file" }] },
  ]);
  assert.ok(!requests[0].tools.some((t) => t.name === "Task"), "no nested sub-agents");
  assert.ok(requests[0].tools.some((t) => t.name === "exec_command"));
  const toolResult = requests[1].messages.at(-1) as Message & { role: "tool_result" };
  assert.match(JSON.stringify(toolResult.blocks), /nested-42/);
  assert.equal(parent.usage.outputTokens, 2, "sub-agent usage is added to the parent's");
  assert.ok(seen.every(([, label]) => label === "writer"));
  assert.deepEqual(seen.at(-1), ["turn_end", "writer"]);
  assert.deepEqual([...ctx.state], [["parent", 1]], "the parent's session state is untouched");
  await Deno.remove(ctx.cwd, { recursive: true });
});

Deno.test("runTurn() with a sub-agent tool returns the nested answer to the parent model", async () => {
  const base = await context();
  const harness = await harnessWithTask();
  const { provider, requests } = scriptedProvider([
    [call("p1", "Task", { prompt: "count files", description: "counter" })],
    [call("s1", "exec_command", { cmd: "echo from-child" })],
    [{ type: "text", text: "child says from-child" }],
    [call("p2", "Task", { prompt: "again" })],
    [call("s2", "Task", { prompt: "deeper" })],
    [{ type: "text", text: "could not nest" }],
    [{ type: "text", text: "parent done" }],
  ]);
  const state: LoopState = {
    model: "m",
    system: systemText("sys"),
    messages: [{ role: "user", blocks: [{ type: "text", text: "go" }] }],
    usage: emptyUsage(),
  };
  const ctx: TurnContext = { ...base };
  const tagged: Array<string | undefined> = [];
  ctx.runSubagent = makeSubagentRunner(base, {
    provider,
    harness,
    parent: state,
    toolHooks: allowAll,
    emit: (_event, _label, callId) => tagged.push(callId),
  });
  const events: LoopEvent[] = [];
  const outcome = await runTurn(state, {
    toolHooks: allowAll,
    provider,
    harness,
    ctx,
    emit: (e) => events.push(e),
    signal: base.signal,
  });
  assert.deepEqual(outcome, { status: "completed", finalText: "parent done" });
  assert.ok(requests[0].tools.some((t) => t.name === "Task"));
  const first = requests[3].messages.find((m) => m.role === "tool_result" && m.callId === "p1");
  assert.deepEqual(first?.blocks, [{
    type: "text",
    text: "child says from-child\n(tool uses: 1)",
  }]);
  const nested = requests[5].messages.at(-1) as Message & { role: "tool_result" };
  assert.equal(nested.isError, true, "a sub-agent cannot start its own sub-agent");
  assert.match(JSON.stringify(nested.blocks), /unsupported call: Task/);
  assert.equal(state.usage.outputTokens, 7);
  // Each sub-agent's events carry the id of the call that started it, not the latest call's.
  assert.deepEqual([...new Set(tagged)], ["p1", "p2"]);
  assert.equal(tagged.indexOf("p2"), tagged.lastIndexOf("p1") + 1);
  await Deno.remove(base.cwd, { recursive: true });
});

Deno.test("makeSubagentRunner() puts the sub-agent's own calls through the approval hook", async () => {
  const ctx = await context();
  const { provider } = scriptedProvider([
    [call("s1", "exec_command", { cmd: "touch should-not-exist" })],
    [{ type: "text", text: "refused" }],
  ]);
  const checked: string[] = [];
  const runner = makeSubagentRunner(ctx, {
    provider,
    harness: await harnessWithTask(),
    parent: { model: "m", system: systemText("s"), usage: emptyUsage() },
    emit: () => {},
    toolHooks: () => [{
      name: "deny",
      before: (call) => {
        checked.push(call.capability);
        return Promise.resolve({ action: "deny", reason: "denied by test" });
      },
    }],
  });
  const result = await runner({ prompt: "make a file" });
  assert.equal(result.finalText, "refused");
  assert.deepEqual(checked, ["shell.run"]);
  assert.equal(await Deno.stat(`${ctx.cwd}/should-not-exist`).catch(() => undefined), undefined);
  await Deno.remove(ctx.cwd, { recursive: true });
});
