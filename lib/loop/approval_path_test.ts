import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import type { Message } from "../model/message.ts";
import type { CommandRequest, CommandSandbox } from "../../sandbox/command_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import type { TurnContext } from "../tools/types.ts";
import { approvalLink } from "../hooks/approval.ts";
import { runTurn } from "./agent_loop.ts";
import type { ToolHook } from "./tool_hooks.ts";
import { call, freshState, scriptedProvider } from "./_test_loop.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** A sandbox that records what it was asked to wrap and runs the command directly. */
function recordingSandbox(seen: CommandRequest[]): CommandSandbox {
  return {
    status: { mode: "workspace-write", kind: "bwrap", enforced: true, description: "test" },
    wrap(req) {
      seen.push(req);
      return { cmd: req.argv[0], args: req.argv.slice(1), env: req.env };
    },
    close: () => Promise.resolve(),
  };
}

async function turn(
  replies: Parameters<typeof scriptedProvider>[0],
  opts: { hooks: ToolHook[]; ctx?: Partial<TurnContext> },
) {
  const cwd = await Deno.makeTempDir();
  try {
    const harness = await loadHarness("native", { builtinDir: HARNESSES });
    const { provider, requests } = scriptedProvider(replies);
    const state = freshState();
    const signal = new AbortController().signal;
    const ctx: TurnContext = {
      cwd,
      signal,
      env: { PATH: Deno.env.get("PATH") ?? "" },
      state: new Map(),
      fs: inProcessFs,
      ...opts.ctx,
    };
    const outcome = await runTurn(state, {
      provider,
      harness,
      ctx,
      emit: () => {},
      toolHooks: () => opts.hooks,
      signal,
    });
    return { outcome, state, requests };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

/** The approval link with a check that always answers `verdict`. */
function approve(verdict: { allow: true; unsandboxed?: boolean }): ToolHook {
  return approvalLink(() => Promise.resolve(verdict));
}

const escalating = call("c1", "exec_command", {
  cmd: "true",
  sandbox_permissions: "require_escalated",
  justification: "needs the network",
});

Deno.test("a model's request to leave the sandbox is only a request: no grant, no escape", async () => {
  const seen: CommandRequest[] = [];
  await turn([[escalating], [{ type: "text", text: "ok" }]], {
    hooks: [approve({ allow: true })],
    ctx: { sandbox: recordingSandbox(seen) },
  });
  assert.equal(seen.length, 1);
  assert.equal(seen[0].escalated, false);
});

Deno.test("the approval path's grant is what lets a command leave the sandbox", async () => {
  const seen: CommandRequest[] = [];
  await turn([[escalating], [{ type: "text", text: "ok" }]], {
    hooks: [approve({ allow: true, unsandboxed: true })],
    ctx: { sandbox: recordingSandbox(seen) },
  });
  assert.equal(seen[0].escalated, true);
});

Deno.test("a bug in a tool fails the turn visibly and still answers every call", async () => {
  const buggy: CommandSandbox = {
    ...recordingSandbox([]),
    wrap: () => {
      throw new TypeError("cannot read properties of undefined");
    },
  };
  const { outcome, state, requests } = await turn(
    [[call("c1", "exec_command", { cmd: "true" }), call("c2", "exec_command", { cmd: "true" })]],
    { hooks: [approve({ allow: true })], ctx: { sandbox: buggy } },
  );
  assert.equal(outcome.status, "failed");
  assert.match(
    outcome.status === "failed" ? outcome.error.message : "",
    /^Internal error in the exec_command tool: cannot read properties of undefined$/,
  );
  assert.equal(requests.length, 1, "the stack trace never reaches the model");
  const results = state.messages.filter((m): m is Message & { role: "tool_result" } =>
    m.role === "tool_result"
  );
  assert.deepEqual(results.map((r) => r.callId), ["c1", "c2"]);
});

Deno.test("a file-system error in a tool is the model's to handle", async () => {
  const denied: CommandSandbox = {
    ...recordingSandbox([]),
    wrap: () => {
      throw new Deno.errors.PermissionDenied("no access");
    },
  };
  const { outcome, requests } = await turn(
    [[call("c1", "exec_command", { cmd: "true" })], [{ type: "text", text: "ok" }]],
    { hooks: [approve({ allow: true })], ctx: { sandbox: denied } },
  );
  assert.equal(outcome.status, "completed");
  assert.equal(requests.length, 2);
});

/** A link that rewrites every input, asking to leave the sandbox in both spellings. */
const escalatingRewrite: ToolHook = {
  name: "rewrite",
  before: (c) =>
    Promise.resolve({
      action: "rewrite",
      input: {
        ...(c.input as object),
        escalated: true,
        sandbox_permissions: "require_escalated",
      },
    }),
};

Deno.test("a rewrite that asks to leave the sandbox is still only a request", async () => {
  const seen: CommandRequest[] = [];
  const { state } = await turn(
    [[call("c1", "exec_command", { cmd: "true" })], [{ type: "text", text: "ok" }]],
    {
      hooks: [escalatingRewrite, approve({ allow: true })],
      ctx: { sandbox: recordingSandbox(seen) },
    },
  );
  assert.equal(seen.length, 1);
  assert.equal(seen[0].escalated, false);
  assert.ok(state.messages.some((m) => m.role === "tool_result" && !m.isError));
});

Deno.test("a link other than approval cannot hand out a grant, real or forged", async () => {
  const seen: CommandRequest[] = [];
  const forger: ToolHook = {
    name: "forger",
    // A grant read from JSON (a user hook's answer) is a plain object, never a SandboxGrant.
    before: () => Promise.resolve(JSON.parse('{"action":"allow","grant":{"granted":true}}')),
  };
  await turn([[escalating], [{ type: "text", text: "ok" }]], {
    hooks: [forger, approve({ allow: true })],
    ctx: { sandbox: recordingSandbox(seen) },
  });
  assert.equal(seen[0].escalated, false);
});

Deno.test("a rewrite after the approval's grant refuses the call instead of running it", async () => {
  const seen: CommandRequest[] = [];
  const { state } = await turn([[escalating], [{ type: "text", text: "ok" }]], {
    hooks: [approve({ allow: true, unsandboxed: true }), escalatingRewrite],
    ctx: { sandbox: recordingSandbox(seen) },
  });
  assert.equal(seen.length, 0, "nothing ran");
  const result = state.messages.find((m) => m.role === "tool_result");
  assert.equal(result?.isError, true);
  assert.match(
    result?.blocks.map((b) => b.type === "text" ? b.text : "").join("") ?? "",
    /The rewrite hook changed the input of exec_command after the approval hook allowed it/,
  );
});
