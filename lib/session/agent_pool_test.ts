import assert from "node:assert/strict";
import type { LoopState } from "../loop/agent_loop.ts";
import { emptyUsage } from "../model/message.ts";
import { agentSwarm } from "../tools/agent_task.ts";
import type { ToolContext } from "../tools/types.ts";
import { AgentPool } from "./agent_pool.ts";
import type { SubagentStep } from "./subagent.ts";

/** The text of the conversation's last user message. */
function lastUser(state: LoopState): string {
  const m = state.messages.findLast((m) => m.role === "user");
  const b = m?.blocks[0];
  return b?.type === "text" ? b.text : "";
}

/**
 * A step that answers `done: <last message>`, or, for a message containing "slow", waits until
 * its signal aborts (then ends as aborted).
 */
const step: SubagentStep = (state, { signal }) => {
  const text = lastUser(state);
  if (!text.includes("slow")) {
    return Promise.resolve({ finalText: `done: ${text}`, toolCalls: 0, status: "completed" });
  }
  return new Promise((resolve) => {
    signal.addEventListener(
      "abort",
      () => resolve({ finalText: "", toolCalls: 0, status: "aborted" }),
    );
  });
};

function pool(): AgentPool {
  return new AgentPool({
    step,
    open: (_agent, prompt) =>
      Promise.resolve({
        model: "m",
        system: [],
        messages: [{ role: "user", blocks: [{ type: "text", text: prompt }] }],
        usage: emptyUsage(),
      }),
  });
}

Deno.test("a wait times out on a working agent; interrupt ends its step and it takes the next message", async () => {
  await using agents = pool();
  const signal = new AbortController().signal;
  const a = await agents.spawn({ prompt: "slow task", name: "worker" });
  assert.equal(a.id, "agent-1");
  assert.equal(a.status, "running");
  const timed = await agents.wait(["worker"], 20, signal);
  assert.equal(timed.timedOut, true);
  assert.equal(timed.agents[0].status, "running");
  await agents.send("agent-1", "quick one", { interrupt: true });
  const done = await agents.wait(["agent-1"], 5_000, signal);
  assert.equal(done.timedOut, false);
  assert.deepEqual([done.agents[0].status, done.agents[0].lastText], [
    "completed",
    "done: quick one",
  ]);
});

Deno.test("a closed agent refuses messages until resumed, and keeps its conversation", async () => {
  await using agents = pool();
  const signal = new AbortController().signal;
  await agents.spawn({ prompt: "first" });
  await agents.wait([], 5_000, signal);
  const before = await agents.close("agent-1");
  assert.equal(before.status, "completed");
  await assert.rejects(agents.send("agent-1", "more"), /is closed/);
  assert.equal((await agents.resume("agent-1")).status, "completed");
  await agents.send("agent-1", "more");
  const { agents: [a] } = await agents.wait(["agent-1"], 5_000, signal);
  assert.equal(a.lastText, "done: more");
  await assert.rejects(agents.send("agent-9", "x"), /no agent "agent-9"/);
});

Deno.test("settle() waits for working agents and reports each unread result once", async () => {
  await using agents = pool();
  const signal = new AbortController().signal;
  await agents.spawn({ prompt: "one" });
  await agents.spawn({ prompt: "two", name: "second" });
  const notice = await agents.settle(signal) ?? "";
  assert.match(notice, /agent-1 \(agent-1\) finished its task: completed\.\n\ndone: one/);
  assert.match(notice, /agent-2 \(second\) finished its task: completed\.\n\ndone: two/);
  assert.equal(await agents.settle(signal), undefined);
});

Deno.test("disposing the pool aborts a working agent", async () => {
  const agents = pool();
  await agents.spawn({ prompt: "slow forever" });
  await agents[Symbol.asyncDispose]();
  const [a] = await agents.list();
  assert.equal(a.status, "interrupted");
});

Deno.test("AgentSwarm runs one agent per item at once and reports each, resuming a mapped one", async () => {
  await using agents = pool();
  const signal = new AbortController().signal;
  const ctx = { agents, signal, callId: "c1" } as unknown as ToolContext;
  const first = await agentSwarm.run(
    { description: "check", prompt_template: "check {item}", items: ["a.ts", 'b"c.ts'] },
    ctx,
  );
  assert.equal(first.completed, 2);
  assert.deepEqual(first.agentIds, ["agent-1", "agent-2"]);
  assert.match(first.text, /^<agent_swarm_result>\n<summary>completed: 2<\/summary>\n/);
  assert.match(
    first.text,
    /<subagent item="a\.ts" agent_id="agent-1" outcome="completed">\ndone: check a\.ts\n<\/subagent>/,
  );
  assert.match(first.text, /item="b&quot;c\.ts"/);
  const again = await agentSwarm.run(
    { description: "recheck", items: ["a.ts"], resume_agent_ids: { "a.ts": "agent-1" } },
    ctx,
  );
  assert.deepEqual(again.agentIds, ["agent-1"]);
  assert.match(again.text, /done: recheck\n\na\.ts/);
  await assert.rejects(agentSwarm.run({ description: "none", items: [] }, ctx), /1 to 128 items/);
});
