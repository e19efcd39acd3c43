import { allowAll, testContext } from "./_test_loop.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import type { Block, Message } from "../model/message.ts";
import { emptyUsage } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import { replayReasoning, runTurn } from "./agent_loop.ts";
import { call, freshState, scriptedProvider } from "./_test_loop.ts";
import type { LoopEvent } from "./events.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { tempWorkspace } from "../tools/_test_workspace.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

async function run(replies: Array<Block[] | StreamEvent>) {
  await using ws = await tempWorkspace();
  const cwd = ws.dir;
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const { provider, requests } = scriptedProvider(replies);
  const events: LoopEvent[] = [];
  const state = freshState();
  const signal = new AbortController().signal;
  const outcome = await runTurn(state, {
    toolHooks: allowAll,
    provider,
    harness,
    ctx: testContext(cwd, signal, inProcessFs),
    emit: (e) => events.push(e),
    signal,
  });
  return { outcome, state, requests, events };
}

Deno.test("runTurn() runs tool calls and sends results until the model stops calling tools", async () => {
  const { outcome, requests } = await run([
    [call("c1", "exec_command", { cmd: "echo hello" })],
    [{ type: "text", text: "done" }],
  ]);
  assert.deepEqual(outcome, { status: "completed", finalText: "done" });
  const last = requests[1].messages.at(-1) as Message & { role: "tool_result" };
  assert.equal(last.role, "tool_result");
  assert.equal(last.callId, "c1");
  assert.equal(last.isError, false);
  assert.match((last.blocks[0] as { text: string }).text, /hello/);
});

Deno.test("runTurn() returns bad tool arguments to the model as an error and goes on", async () => {
  const { outcome, requests } = await run([
    [call("c1", "exec_command", { cmd: 42 }), call("c2", "no_such_tool", {})],
    [{ type: "text", text: "recovered" }],
  ]);
  assert.equal(outcome.status, "completed");
  const results = requests[1].messages.filter((m) => m.role === "tool_result");
  assert.deepEqual(results.map((r) => [r.callId, r.isError]), [["c1", true], ["c2", true]]);
  assert.match(JSON.stringify(results[0].blocks), /cmd/);
  assert.match(JSON.stringify(results[1].blocks), /unsupported call: no_such_tool/);
});

Deno.test("runTurn() ends with the provider's failure", async () => {
  const { outcome } = await run([{ type: "error", error: { message: "boom", retryable: false } }]);
  assert.deepEqual(outcome, { status: "failed", error: { message: "boom", retryable: false } });
});

Deno.test("replayReasoning() keeps only the latest reasoning in 'latest' mode", () => {
  const assistant = (text: string): Message => ({
    role: "assistant",
    blocks: [{ type: "thinking", text }, { type: "text", text }],
    stop: "end_turn",
    usage: emptyUsage(),
  });
  const messages = [assistant("a"), assistant("b")];
  const thinking = (ms: Message[]) =>
    ms.map((m) => m.blocks.filter((b) => b.type === "thinking").length);
  assert.deepEqual(thinking(replayReasoning(messages, "latest")), [0, 1]);
  assert.deepEqual(thinking(replayReasoning(messages, "none")), [0, 0]);
  assert.deepEqual(thinking(replayReasoning(messages, "all")), [1, 1]);
});

Deno.test("runTurn() drives a text protocol: parse commands, answer with an observation", async () => {
  await using ws = await tempWorkspace();
  const cwd = ws.dir;
  const native = await loadHarness("native", { builtinDir: HARNESSES });
  const harness = {
    ...native,
    protocol: {
      parse: (reply: string) =>
        reply.startsWith("RUN ")
          ? {
            kind: "calls" as const,
            calls: [{ name: "exec_command", args: { cmd: reply.slice(4) } }],
          }
          : reply === "DONE"
          ? { kind: "finish" as const, finalText: "finished" }
          : { kind: "format_error" as const, message: "Write RUN <command> or DONE" },
      observation: (results: Array<{ text: string }>) => `OBSERVATION:\n${results[0].text}`,
    },
  };
  const { provider, requests } = scriptedProvider([
    [{ type: "text", text: "hmm" }],
    [{ type: "text", text: "RUN echo from-text" }],
    [{ type: "text", text: "DONE" }],
  ]);
  const signal = new AbortController().signal;
  const state = freshState();
  const outcome = await runTurn(state, {
    toolHooks: allowAll,
    provider,
    harness,
    ctx: testContext(cwd, signal, inProcessFs),
    emit: () => {},
    signal,
  });
  assert.deepEqual(outcome, { status: "completed", finalText: "finished" });
  assert.deepEqual(requests[0].tools, [], "a text protocol sends no tool declarations");
  const userTexts = requests[2].messages.filter((m) => m.role === "user").map((m) =>
    (m.blocks[0] as { text: string }).text
  );
  assert.equal(userTexts[1], "Write RUN <command> or DONE");
  assert.match(userTexts[2], /^OBSERVATION:\n[\s\S]*from-text/);
});

Deno.test("runTurn() answers every tool call even when interrupted mid-way", async () => {
  await using ws = await tempWorkspace();
  const cwd = ws.dir;
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const { provider } = scriptedProvider([
    [call("c1", "exec_command", { cmd: "true" }), call("c2", "exec_command", { cmd: "true" })],
  ]);
  const controller = new AbortController();
  const state = freshState();
  const outcome = await runTurn(state, {
    toolHooks: allowAll,
    provider,
    harness,
    ctx: { cwd, signal: controller.signal, env: {}, state: new Map(), fs: inProcessFs },
    emit: (e) => {
      if (e.type === "tool_end") controller.abort();
    },
    signal: controller.signal,
  });
  assert.deepEqual(outcome, { status: "aborted" });
  const results = state.messages.filter((m) => m.role === "tool_result");
  assert.deepEqual(results.map((r) => [r.callId, r.isError]), [["c1", false], ["c2", true]]);
});

Deno.test("replayReasoning() gives tool-calling turns without reasoning the placeholder", () => {
  const turn = (blocks: Block[]): Message => ({
    role: "assistant",
    blocks,
    stop: "tool_calls",
    usage: emptyUsage(),
  });
  const messages = [
    turn([call("c1", "x", {})]),
    turn([{ type: "thinking", text: "real" }, call("c2", "x", {})]),
    turn([{ type: "text", text: "done" }]),
  ];
  const replayed = replayReasoning(messages, "all", "(reasoning omitted)");
  assert.deepEqual(replayed[0].blocks[0], { type: "thinking", text: "(reasoning omitted)" });
  assert.deepEqual(replayed[1], messages[1]);
  assert.deepEqual(replayed[2], messages[2]);
  assert.deepEqual(replayReasoning(messages, "all"), messages);
});
