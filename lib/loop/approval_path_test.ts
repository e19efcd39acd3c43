import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import type { Message } from "../model/message.ts";
import type { CommandRequest, CommandSandbox } from "../../sandbox/command_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import type { ToolContext } from "../tools/capability.ts";
import { runTurn } from "./agent_loop.ts";
import type { BeforeToolCall } from "./dispatch.ts";
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
  opts: { beforeToolCall: BeforeToolCall; ctx?: Partial<ToolContext> },
) {
  const cwd = await Deno.makeTempDir();
  try {
    const harness = await loadHarness("native", { builtinDir: HARNESSES });
    const { provider, requests } = scriptedProvider(replies);
    const state = freshState();
    const signal = new AbortController().signal;
    const ctx: ToolContext = {
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
      beforeToolCall: opts.beforeToolCall,
      signal,
    });
    return { outcome, state, requests };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

const escalating = call("c1", "exec_command", {
  cmd: "true",
  sandbox_permissions: "require_escalated",
  justification: "needs the network",
});

Deno.test("a model's request to leave the sandbox is only a request: no grant, no escape", async () => {
  const seen: CommandRequest[] = [];
  await turn([[escalating], [{ type: "text", text: "ok" }]], {
    beforeToolCall: () => Promise.resolve({ allow: true }),
    ctx: { sandbox: recordingSandbox(seen) },
  });
  assert.equal(seen.length, 1);
  assert.equal(seen[0].escalated, false);
});

Deno.test("the approval path's grant is what lets a command leave the sandbox", async () => {
  const seen: CommandRequest[] = [];
  await turn([[escalating], [{ type: "text", text: "ok" }]], {
    beforeToolCall: () => Promise.resolve({ allow: true, unsandboxed: true }),
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
    { beforeToolCall: () => Promise.resolve({ allow: true }), ctx: { sandbox: buggy } },
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
    { beforeToolCall: () => Promise.resolve({ allow: true }), ctx: { sandbox: denied } },
  );
  assert.equal(outcome.status, "completed");
  assert.equal(requests.length, 2);
});
