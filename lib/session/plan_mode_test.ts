import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import type { CommandSandbox } from "../../sandbox/command_sandbox.ts";
import type { ResolvedHookCall } from "../loop/tool_hooks.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";
import { PlanMode, planSteps } from "./plan_mode.ts";

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("plan mode confines a danger-full-access session; ExitPlanMode's plan ends the turn", async () => {
  const plan = "1. Write x.txt\n2. Run the tests";
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "EnterPlanMode", args: {} }] } },
    {
      expect: { last_tool_result_contains: "Plan mode is on" },
      reply: { tool_calls: [{ name: "Bash", args: { command: "touch made.txt" } }] },
    },
    {
      reply: {
        tool_calls: [
          { name: "Write", args: { file_path: "x.txt", content: "x" } },
          { name: "ExitPlanMode", args: { plan } },
          { name: "Write", args: { file_path: "y.txt", content: "y" } },
        ],
      },
    },
    {
      expect: { user_contains: "carry it out" },
      reply: { tool_calls: [{ name: "Bash", args: { command: "touch made.txt" } }] },
    },
    { reply: { text: "Done." } },
  ]);
  await using ws = await sessionWorkspace(fake.origin);
  const config = join(ws.home, "config.toml");
  await Deno.writeTextFile(
    config,
    (await Deno.readTextFile(config)).replace('wire_api = "chat"', 'wire_api = "messages"'),
  );
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "zcode", sandbox: "danger-full-access", approval: "never" },
    { onEvent: (e) => events.push(e), askUser: () => Promise.resolve(null) },
    { env: ws.env },
  );
  const outcome = await session.prompt("plan it", new AbortController().signal);
  assert.equal(outcome.status, "completed");
  assert.equal(session.planMode, true, "EnterPlanMode turned plan mode on");
  assert.deepEqual(session.proposedPlan(), {
    steps: ["Write x.txt", "Run the tests"],
    source: "plan_tool",
    text: plan,
  });
  assert.equal(await exists(join(ws.cwd, "made.txt")), false, "the command ran read-only");
  assert.equal(await exists(join(ws.cwd, "x.txt")), false);
  const results = events.flatMap((e) => e.type === "tool_end" ? [e.text] : []);
  assert.match(results[1], /Read-only file system|no OS sandbox/);
  assert.match(results[2], /^Plan mode is on: Write can change files/);
  assert.match(results[3], /^Plan submitted for approval\.\n\n1\. Write x\.txt/);
  const last = session.history().at(-1);
  assert.equal(last?.role, "tool_result");
  assert.match(JSON.stringify(last), /Not run: the plan waits for the user's answer/);
  assert.equal(fake.requests.length, 3, "the turn ended at ExitPlanMode");

  session.setPlanMode(false);
  await session.prompt("The plan is approved: carry it out.", new AbortController().signal);
  assert.equal(await exists(join(ws.cwd, "made.txt")), true, "the session's permissions are back");
  assert.equal(session.proposedPlan(), undefined);
  assert.deepEqual(fake.failures, []);
});

Deno.test("without anyone to approve a plan, the plan tools are left out and the turn carries on", async () => {
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "EnterPlanMode", args: {} }] } },
    {
      expect: { last_tool_result_contains: "unsupported call: EnterPlanMode" },
      reply: { text: "ok" },
    },
  ]);
  await using ws = await sessionWorkspace(fake.origin);
  const config = join(ws.home, "config.toml");
  await Deno.writeTextFile(
    config,
    (await Deno.readTextFile(config)).replace('wire_api = "chat"', 'wire_api = "messages"'),
  );
  await using session = await openSession(
    { cwd: ws.cwd, harness: "zcode", sandbox: "danger-full-access", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  await session.prompt("go", new AbortController().signal);
  assert.equal(session.planMode, false);
  assert.deepEqual(fake.failures, []);
  const sent = JSON.stringify((fake.requests[0].body as { tools: unknown[] }).tools);
  assert.doesNotMatch(sent, /EnterPlanMode|ExitPlanMode/, "zcode sends no plan tools here");
});

/** A sandbox that records what it was asked to wrap. */
function recordingSandbox(enforced: boolean, wrapped: unknown[]): CommandSandbox {
  return {
    status: { mode: "read-only", kind: "bwrap", enforced, description: "test" },
    wrap: (req) => (wrapped.push(req), { cmd: "true", args: [], env: {} }),
    close: () => Promise.resolve(),
  };
}

function call(capability: string, mutates: boolean, input: unknown): ResolvedHookCall {
  return { id: "c1", name: "Tool", args: input, capability, mutates, input };
}

Deno.test("PlanMode refuses changing tools and escalation, and never lets a command leave", async () => {
  const denied: string[] = [];
  const [normal, readOnly]: unknown[][] = [[], []];
  const plan = new PlanMode({
    openSandbox: () => Promise.resolve(recordingSandbox(true, readOnly)),
    onDenied: (reason) => denied.push(reason),
  });
  const [link] = plan.hooks(() => [])({ harness: {} as never, state: new Map() });
  const signal = new AbortController().signal;
  const sandbox = plan.sandbox(recordingSandbox(true, normal));
  const req = { argv: ["touch", "x"], cwd: "/w", env: {}, escalated: true };

  assert.equal(await link.before!(call("fs.write", true, {}), signal), undefined, "off: no say");
  await sandbox.wrap(req);
  plan.set(true);
  assert.equal(await link.before!(call("fs.read", false, {}), signal), undefined);
  assert.equal(
    await link.before!(call("shell.run", true, { command: "rm -rf x" }), signal),
    undefined,
  );
  const write = await link.before!(call("fs.write", true, {}), signal);
  assert.equal(write?.action, "deny");
  const escalated = await link.before!(
    call("shell.run", true, { command: "ls", sandbox_permissions: "require_escalated" }),
    signal,
  );
  assert.match((escalated as { reason: string }).reason, /cannot leave it/);
  assert.equal(denied.length, 2);
  await sandbox.wrap(req);
  assert.deepEqual(normal, [req], "off: the session's sandbox, as asked");
  assert.deepEqual(readOnly, [{ ...req, escalated: false }], "on: inside the read-only one");
  await plan[Symbol.asyncDispose]();
});

Deno.test("PlanMode without an enforced read-only sandbox runs only known read-only commands", async () => {
  const plan = new PlanMode({ openSandbox: () => Promise.resolve(recordingSandbox(false, [])) });
  plan.set(true);
  const [link] = plan.hooks(() => [])({ harness: {} as never, state: new Map() });
  const signal = new AbortController().signal;
  assert.equal(
    await link.before!(call("shell.run", true, { command: "ls -la" }), signal),
    undefined,
  );
  const touch = await link.before!(call("shell.run", true, { command: "touch x" }), signal);
  assert.match((touch as { reason: string }).reason, /no OS sandbox here/);
});

Deno.test("PlanMode proposes the plan list written in the turn, else the answer's steps", async () => {
  const plan = new PlanMode({ openSandbox: () => Promise.reject(new Error("unused")) });
  const state = new Map<string, unknown>([["todos", [{ content: "old", status: "pending" }]]]);
  const answer = (text: string) => [
    { role: "user" as const, blocks: [{ type: "text" as const, text: "q" }] },
    {
      role: "assistant" as const,
      blocks: [{ type: "text" as const, text }],
      stop: "end_turn" as const,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    },
  ];
  assert.deepEqual(await plan.startTurn("q", state), [{ type: "text", text: "q" }]);
  plan.set(true);
  const blocks = await plan.startTurn("q", state);
  assert.match((blocks[1] as { text: string }).text, /^Plan mode is on/);
  assert.equal((blocks[1] as { context?: boolean }).context, true);
  plan.endTurn(state, answer("- Read it\n- Fix it"));
  assert.deepEqual(
    plan.proposal()?.steps,
    ["Read it", "Fix it"],
    "the old list is not this turn's",
  );
  await plan.startTurn("q", state);
  state.set("plan", [{ step: "Fix the parser", status: "pending" }]);
  plan.endTurn(state, answer("See the plan."));
  assert.deepEqual(plan.proposal(), { steps: ["Fix the parser"], source: "plan_list" });
  plan.set(false);
  assert.equal(plan.proposal(), undefined);
});

Deno.test("planSteps() takes numbered, bulleted or checkbox items, else the lines", () => {
  assert.deepEqual(planSteps("Plan:\n1. a\n2) b\n\n* c\n- [ ] d"), ["a", "b", "c", "d"]);
  assert.deepEqual(planSteps("first\n\n second "), ["first", "second"]);
});
