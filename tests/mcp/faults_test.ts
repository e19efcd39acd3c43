/**
 * MCP servers that fail: one that crashes on its first call (started again once, then it works),
 * one that crashes on every call (started again once, then off), one that never answers
 * `initialize`, and one whose command does not exist. Each fault is one warning line naming the
 * server, what happened and its log; the tools answer with errors the model can act on; the
 * other servers keep working; closing leaves no process behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError, UserError } from "../../lib/errors.ts";
import { McpServers } from "../../lib/mcp/mcp_servers.ts";
import type { SourceTool } from "../../lib/tools/tool_source.ts";
import type { ToolContext } from "../../lib/tools/types.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { assertNoProcesses, testServer } from "./_servers.ts";

function context(cwd: string): ToolContext {
  const signal = new AbortController().signal;
  return { cwd, signal, env: {}, state: new Map(), fs: inProcessFs, callId: "c", progress() {} };
}

async function toolOf(servers: McpServers, id: string): Promise<SourceTool> {
  const source = servers.sources.find((s) => s.id === id)!;
  const [tool] = await source.tools(new AbortController().signal);
  return tool;
}

Deno.test("MCP servers that crash, hang or cannot start are told once each and answer with errors", async (t) => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_mcp_faults_" }));
  const home = join(root, "home");
  const warnings: string[] = [];
  const onceDir = join(root, "once");
  const alwaysDir = join(root, "always");
  await Deno.mkdir(onceDir);
  await Deno.mkdir(alwaysDir);
  const servers = new McpServers({
    once: testServer("crash_once", onceDir),
    always: testServer("crash_always", alwaysDir),
    hang: testServer("hang", root, { startup_timeout_sec: 1, required: true }),
    missing: { command: join(root, "no-such-server") },
    off: { command: join(root, "never-started"), enabled: false },
  }, { home, env: { PATH: Deno.env.get("PATH") ?? "" }, cwd: root, warn: (m) => warnings.push(m) });
  const ctx = context(root);
  const log = (id: string) => join(home, "logs", `mcp-${id}.log`);
  try {
    await t.step("a crash on the first call: an error, then the server again", async () => {
      const boom = await toolOf(servers, "once");
      await assert.rejects(boom.run({}, ctx), (error: ToolError) => {
        assert.ok(error instanceof ToolError);
        assert.equal(error.message, 'MCP server "once" exited while it ran boom');
        assert.equal(error.hint, "It is started again on the next call: try once more");
        return true;
      });
      assert.equal((await boom.run({}, ctx)).text, "survived");
      assert.match(await Deno.readTextFile(log("once")), /exiting on purpose/);
    });
    await t.step("a crash on every call: started again once, then off", async () => {
      const boom = await toolOf(servers, "always");
      await assert.rejects(boom.run({}, ctx), /exited while it ran boom/);
      await assert.rejects(boom.run({}, ctx), /exited while it ran boom/);
      await assert.rejects(
        boom.run({}, ctx),
        /^ToolError: MCP server "always" is not available: it exited again/,
      );
    });
    await t.step(
      "no answer to initialize, a missing command: failed, and a required one fails the start",
      async () => {
        assert.deepEqual(
          await servers.sources.find((s) => s.id === "hang")!.tools(new AbortController().signal),
          [],
        );
        const views = Object.fromEntries(servers.servers().map((v) => [v.id, v]));
        assert.deepEqual(Object.keys(views), ["once", "always", "hang", "missing"]);
        assert.equal(views.hang.status, "failed");
        assert.equal(
          views.hang.reason,
          "It did not answer initialize within 1 s (startup_timeout_sec)",
        );
        assert.equal(views.missing.status, "failed");
        assert.match(
          views.missing.reason!,
          /^Cannot run ".*no-such-server": the command was not found$/,
        );
        assert.equal(views.once.status, "ready");
        await assert.rejects(servers.requireStarted(), (error: UserError) => {
          assert.ok(error instanceof UserError);
          assert.equal(error.exitCode, 1);
          assert.match(
            error.message,
            /^MCP server "hang" is required but did not start: It did not answer initialize/,
          );
          assert.match(
            error.hint!,
            new RegExp(`^See its log: ${log("hang")}; then fix \\[mcp_servers\\.hang\\]`),
          );
          return true;
        });
      },
    );
  } finally {
    await servers[Symbol.asyncDispose]();
    await assertNoProcesses(root);
    await Deno.remove(root, { recursive: true });
  }
  const expected = [
    `MCP server "missing" did not start: Cannot run "${
      join(root, "no-such-server")
    }": the command was not found; log: ${log("missing")}`,
    `MCP server "once" exited; it is started again on its next call; log: ${log("once")}`,
    `MCP server "always" exited; it is started again on its next call; log: ${log("always")}`,
    `MCP server "always" exited again; its tools are off; log: ${log("always")}`,
  ];
  assert.deepEqual(warnings, expected);
});
