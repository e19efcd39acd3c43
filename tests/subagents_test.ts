/**
 * Persistent sub-agents through each harness that has them, against one fake-provider process:
 * the scripted parent spawns a background agent, messages it, waits for it (by its wait tool, or
 * by the notice a turn gets when it would end), lists it and closes it. The sub-agent's own
 * requests are told apart from the parent's by their tools (a sub-agent gets no agent tools).
 * Each run checks the sub-agent's two answers reached the parent, its tokens are in the
 * parent's usage, its write outside the workspace of a workspace-write session did not land (its
 * sandbox is the parent's), its trajectory is embedded in the parent's, and no process is left.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeExecTrajectory } from "../lib/modes/exec/exec_trajectory.ts";
import type { AtifObservationResult, AtifStep, Trajectory } from "../lib/trajectory/atif.ts";
import { exportSession } from "../lib/session/export/export.ts";
import { atifProblems } from "./_atif.ts";
import { openSession, type PromptOutcome, type Session } from "../lib/session/open.ts";
import type { SessionEvent } from "../lib/session/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { FakeRoute } from "./fake_provider/routes.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { until } from "./e2e/_poll.ts";

/** Tokens each reply reports: the sub-agent's are far larger, so the sum shows them. */
const PARENT_USAGE = { input_tokens: 10, output_tokens: 1 };
const SUB_USAGE = { input_tokens: 1000, output_tokens: 100 };

function parentTurn(reply: ScriptTurn["reply"], expect?: ScriptTurn["expect"]): ScriptTurn {
  return { ...(expect ? { expect } : {}), reply: { ...reply, usage: PARENT_USAGE } };
}

function call(name: string, args: Record<string, unknown>, namespace?: string): ScriptTurn {
  return parentTurn({ tool_calls: [{ name, args, ...(namespace ? { namespace } : {}) }] });
}

/** The sub-agent: writes outside the workspace (refused, as its parent would be), answers twice. */
function subRoute(model: string): FakeRoute {
  const sub = (reply: ScriptTurn["reply"]): ScriptTurn => ({
    reply: { ...reply, usage: SUB_USAGE },
  });
  return {
    model,
    script: [
      sub({ tool_calls: [SHELL_CALL[model] ?? { name: SHELL[model], args: SHELL_ARGS[model] }] }),
      sub({ text: "sub answer one" }),
      sub({ text: "sub answer two" }),
    ],
  };
}

/** In code mode the sub-agent reaches the shell through `exec` source. */
const SHELL_CALL: Record<string, { name: string; args: Record<string, unknown>; input: string }> = {
  "gpt-6-sub": {
    name: "exec",
    args: {},
    input: 'const r = await tools.exec_command({cmd: "touch ../sub_was_here"});\ntext(r.output);',
  },
};

const SHELL: Record<string, string> = {
  "claude-sub": "Bash",
  "qwen-sub": "run_shell_command",
  "native-sub": "exec_command",
  "kimi-sub": "Bash",
  "kimicli-sub": "Shell",
};
const SHELL_ARGS: Record<string, Record<string, unknown>> = {
  "claude-sub": { command: "touch ../sub_was_here" },
  "qwen-sub": { command: "touch ../sub_was_here" },
  "native-sub": { cmd: "touch ../sub_was_here" },
  "kimi-sub": { command: "touch ../sub_was_here" },
  "kimicli-sub": { command: "touch ../sub_was_here" },
};

const NOTICE = { user_contains: "sub answer two" };

/** Kimi Code and Kimi CLI drive a background agent with the same calls. */
const KIMI_SCRIPT: ScriptTurn[] = [
  call("Agent", { description: "look", prompt: "Look around", run_in_background: true }),
  call("TaskOutput", { task_id: "agent-1", block: true, timeout: 60 }),
  parentTurn(
    {
      tool_calls: [{
        name: "Agent",
        args: { description: "more", prompt: "Tell me more", resume: "agent-1" },
      }],
    },
    { last_tool_result_contains: "sub answer one" },
  ),
  parentTurn(
    { tool_calls: [{ name: "TaskStop", args: { task_id: "agent-1" } }] },
    { last_tool_result_contains: "sub answer two" },
  ),
  parentTurn({ text: "Done." }, { last_tool_result_contains: "agent-1" }),
];

/** Each harness's parent script; the sub-agent is agent-1 in every session. */
const PARENTS: Record<
  string,
  { harness: string; tool: string; wire: WireApi; script: ScriptTurn[] }
> = {
  "claude-sub": {
    harness: "claude-code",
    tool: "Agent",
    wire: "messages",
    script: [
      call("Agent", { description: "look", prompt: "Look around", run_in_background: true }),
      call("ToolSearch", { query: "select:SendMessage,TaskStop" }),
      call("SendMessage", { to: "agent-1", message: "Tell me more" }),
      parentTurn({ text: "Waiting for the agent." }),
      { ...call("ListAgents", {}), expect: NOTICE },
      call("TaskStop", { task_id: "agent-1" }),
      parentTurn({ text: "Done." }, { last_tool_result_contains: "agent-1" }),
    ],
  },
  "native-sub": {
    harness: "native",
    tool: "spawn_agent",
    wire: "responses",
    script: [
      call("spawn_agent", { message: "Look around" }, "multi_agent_v1"),
      call("wait_agent", { targets: ["agent-1"], timeout_ms: 60_000 }, "multi_agent_v1"),
      parentTurn(
        {
          tool_calls: [{
            name: "send_input",
            namespace: "multi_agent_v1",
            args: { target: "agent-1", message: "Tell me more" },
          }],
        },
        { last_tool_result_contains: "sub answer one" },
      ),
      call("wait_agent", { targets: ["agent-1"], timeout_ms: 60_000 }, "multi_agent_v1"),
      parentTurn(
        {
          tool_calls: [{
            name: "close_agent",
            namespace: "multi_agent_v1",
            args: { target: "agent-1" },
          }],
        },
        { last_tool_result_contains: "sub answer two" },
      ),
      call("resume_agent", { id: "agent-1" }, "multi_agent_v1"),
      parentTurn({ text: "Done." }, { last_tool_result_contains: "completed" }),
    ],
  },
  "kimi-sub": {
    harness: "kimi-code",
    tool: "Agent",
    wire: "chat",
    script: KIMI_SCRIPT,
  },
  "kimicli-sub": {
    harness: "kimi-cli",
    tool: "Agent",
    wire: "chat",
    script: KIMI_SCRIPT,
  },
  "gpt-6-sub": {
    harness: "native",
    tool: "followup_task",
    wire: "responses",
    script: [
      call("spawn_agent", { task_name: "looker", message: "Look around" }, "collaboration"),
      call("wait_agent", { timeout_ms: 60_000 }, "collaboration"),
      parentTurn(
        {
          tool_calls: [{
            name: "followup_task",
            namespace: "collaboration",
            args: { target: "looker", message: "Tell me more" },
          }],
        },
        { last_tool_result_contains: "sub answer one" },
      ),
      call("wait_agent", { timeout_ms: 60_000 }, "collaboration"),
      parentTurn(
        {
          tool_calls: [{
            name: "interrupt_agent",
            namespace: "collaboration",
            args: { target: "/root/looker" },
          }],
        },
        { last_tool_result_contains: "sub answer two" },
      ),
      call("list_agents", { path_prefix: "/root/loo" }, "collaboration"),
      parentTurn({ text: "Done." }, { last_tool_result_contains: "looker" }),
    ],
  },
  "qwen-sub": {
    harness: "qwen-code",
    tool: "agent",
    wire: "chat",
    script: [
      call("agent", { description: "look", prompt: "Look around", run_in_background: true }),
      call("tool_call", {
        name: "send_message",
        arguments: { task_id: "agent-1", message: "Tell me more" },
      }),
      parentTurn({ text: "Waiting for the agent." }),
      { ...call("list_agents", {}), expect: NOTICE },
      call("tool_call", { name: "task_stop", arguments: { task_id: "agent-1" } }),
      parentTurn({ text: "Done." }, { last_tool_result_contains: "agent-1" }),
    ],
  },
};

async function childProcesses(): Promise<string[]> {
  const out = await new Deno.Command("ps", {
    args: ["-o", "pid=,comm=", "--ppid", String(Deno.pid)],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").map((l) => l.trim())
    .filter((l) => l && !/\bps$/.test(l));
}

/** Runs one harness's parent script (workspace-write, never asking); its events and usage. */
async function runParent(baseUrl: string, origin: string, model: string) {
  const { harness, wire } = PARENTS[model];
  await using ws = await requestWorkspace({
    prefix: "oi_subagents_",
    files: { "README.md": "# sub-agents\n" },
    model,
    harness,
    wire,
    baseUrl: wire === "messages" ? origin : baseUrl,
  });
  const events: SessionEvent[] = [];
  let tokens = { input: 0, output: 0 };
  {
    await using session = await openSession(
      { cwd: ws.cwd, sandbox: "workspace-write", approval: "never" },
      { onEvent: (e) => events.push(e) },
      { env: ws.env },
    );
    const outcome = await session.prompt("Use a helper", new AbortController().signal);
    assert.equal(outcome.status, "completed", JSON.stringify(outcome));
    tokens = session.status().tokens;
    await checkTrajectories(ws.root, session, outcome, ws.env);
  }
  const written = await Deno.stat(join(ws.root, "sub_was_here")).then(() => true, () => false);
  return { events, tokens, written };
}

/**
 * `exec --trajectory`'s file embeds the sub-agent's own run (ATIF-v1.7 `subagent_trajectories`),
 * its id the parent's session id and the agent's, referenced from the result of the spawning call.
 */
async function checkTrajectories(
  dir: string,
  session: Session,
  outcome: PromptOutcome,
  env: Record<string, string>,
): Promise<void> {
  const path = join(dir, "run.json");
  await writeExecTrajectory(path, session, { outcome }, env);
  const parent = JSON.parse(await Deno.readTextFile(path));
  assert.deepEqual(atifProblems(parent), [], "the trajectory must pass Harbor's v1.7 checks");
  assert.equal(parent.schema_version, "ATIF-v1.7");
  const sessionId = `${session.id}/agent-1`;
  assert.equal(parent.subagent_trajectories.length, 1);
  const [sub] = parent.subagent_trajectories;
  assert.equal(sub.trajectory_id, sessionId);
  assert.match(JSON.stringify(sub.steps), /sub answer two/);
  const spawnCall = sub.agent.extra.parent_call_id;
  const refs = parent.steps.flatMap((s: AtifStep) => s.observation?.results ?? [])
    .filter((r: AtifObservationResult) => r.subagent_trajectory_ref);
  assert.deepEqual(refs.map((r: AtifObservationResult) => r.source_call_id), [spawnCall]);
  assert.deepEqual(refs[0].subagent_trajectory_ref, [{
    trajectory_id: sessionId,
    session_id: sessionId,
  }]);
  assert.match(parent.notes, /sub-agent/, "the totals that count the sub-agent say so");
  // `interpreter export --format atif` embeds it the same way.
  const file = session.status().sessionFile ?? "";
  const exported = JSON.parse(await exportSession(file, "atif", { home: dir }));
  assert.deepEqual(atifProblems(exported), []);
  assert.deepEqual(exported.subagent_trajectories.map((t: Trajectory) => t.trajectory_id), [
    sessionId,
  ]);
}

Deno.test("a background sub-agent is spawned, messaged, waited for and closed in each harness", async () => {
  const routes: FakeRoute[] = Object.entries(PARENTS).flatMap(([model, p]) => [
    { model, tools_include: [p.tool], script: p.script },
    subRoute(model),
  ]);
  await using fake = startFakeProvider([], { routes });
  for (const model of Object.keys(PARENTS)) {
    const { events, tokens, written } = await runParent(fake.baseUrl, fake.origin, model);
    assert.deepEqual(fake.failures, [], `${model}: ${JSON.stringify(fake.failures, null, 1)}`);
    const parentTurns = PARENTS[model].script.length;
    assert.equal(tokens.input, parentTurns * 10 + 3 * 1000, `${model}: sub-agent usage counted`);
    assert.equal(tokens.output, parentTurns * 1 + 3 * 100);
    assert.equal(written, false, `${model}: the sub-agent wrote outside the workspace`);
    const sub = events.filter((e) => e.type === "subagent");
    // The sub-agent's own shell call ran (in code mode as exec_command nested in exec source).
    const ran = sub.map((e) => e.event).find((e) => e.type === "tool_end");
    assert.ok(ran?.type === "tool_end" && ran.capability === "shell.run" && !ran.isError, model);
    assert.ok(sub.length > 0, `${model}: sub-agent events`);
    const spawnCall = events.find((e) => e.type === "tool_start")?.call.id;
    assert.ok(sub.every((e) => e.parentCallId === spawnCall), `${model}: events tagged`);
    // The closed session's sandboxes end as their process groups are killed: poll, not sample.
    let left: string[] = [];
    await until(
      `${model}: no processes left`,
      async () => (left = await childProcesses()).length === 0,
    )
      .catch(() => {});
    assert.deepEqual(left, [], `${model}: processes left`);
  }
  assert.equal(fake.remaining(), 0);
});
