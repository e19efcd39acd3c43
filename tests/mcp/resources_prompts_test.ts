/**
 * Resources and prompts of a real server, `@modelcontextprotocol/server-everything` over stdio:
 * the scripted model lists and reads its resources through native's `list_mcp_resources` and
 * `read_mcp_resource`, Claude Code's `ReadMcpResourceTool` saves a binary resource to a file,
 * and its `args-prompt` runs as the REPL command `/mcp__everything__args-prompt`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../../lib/harness/load.ts";
import { runTurn } from "../../lib/loop/agent_loop.ts";
import { allowAll, freshState } from "../../lib/loop/_test_loop.ts";
import { dispatchToolCall } from "../../lib/loop/dispatch.ts";
import { McpServers } from "../../lib/mcp/mcp_servers.ts";
import { type CommandContext, runCommand } from "../../lib/modes/repl/commands.ts";
import { makeStyle } from "../../lib/modes/term/style.ts";
import { openProvider } from "../../lib/providers/mod.ts";
import { testSettings } from "../../lib/providers/_testing.ts";
import type { Session } from "../../lib/session/types.ts";
import { tempWorkspace } from "../../lib/tools/_test_workspace.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { assertNoProcesses, denoDir, npmServer } from "./_servers.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses/", import.meta.url));
const DOC = "demo://resource/static/document/instructions.md";

const CALLS = [
  { id: "c_list", name: "list_mcp_resources", args: { server: "everything" } },
  { id: "c_read", name: "read_mcp_resource", args: { server: "everything", uri: DOC } },
  { id: "c_bad", name: "read_mcp_resource", args: { server: "everything", uri: "demo://nope" } },
];

Deno.test("server-everything's resources are read through the harness tools and its prompts run as REPL commands", async (t) => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_mcp_resources_" }));
  const servers = new McpServers({
    everything: npmServer("everything", ["stdio", root], await denoDir(), { required: true }),
  }, { home: join(root, "home"), env: { PATH: Deno.env.get("PATH") ?? "" }, cwd: root, warn() {} });
  try {
    await servers.requireStarted();
    await t.step("native: listed and read by the scripted model", async () => {
      await using fake = startFakeProvider([
        { reply: { tool_calls: CALLS } },
        { expect: { last_tool_result_contains: "resources/read failed" }, reply: { text: "done" } },
      ]);
      const provider = await openProvider(testSettings(fake.baseUrl, "responses", { compat: {} }));
      const signal = new AbortController().signal;
      const outcome = await runTurn(freshState(), {
        provider,
        harness: await loadHarness("native", { builtinDir: HARNESSES }),
        ctx: { cwd: root, signal, env: {}, state: new Map(), fs: inProcessFs, mcp: servers },
        emit: () => {},
        toolHooks: allowAll,
        signal,
      });
      assert.deepEqual(fake.failures, []);
      assert.deepEqual(outcome, { status: "completed", finalText: "done" });
      const input = (fake.requests[1].body as { input: Array<Record<string, unknown>> }).input;
      const output = (id: string) =>
        String(
          input.find((i) => i.type === "function_call_output" && i.call_id === id)?.output,
        );
      const listing = JSON.parse(output("c_list"));
      assert.equal(listing.server, "everything");
      assert.ok(
        listing.resources.some((r: Record<string, unknown>) =>
          r.server === "everything" && r.uri === DOC && r.mimeType === "text/markdown"
        ),
      );
      const read = JSON.parse(output("c_read"));
      assert.equal(read.uri, DOC);
      assert.match(read.contents[0].text, /^# Everything Server – Server Instructions/);
      assert.match(output("c_bad"), /^resources\/read failed: .*demo:\/\/nope/);
    });
    await t.step("claude-code: a binary resource is saved to a file", async () => {
      await using ws = await tempWorkspace();
      ws.ctx.mcp = servers;
      const uri = "demo://resource/dynamic/blob/7";
      const result = await dispatchToolCall(
        { id: "c_blob", name: "ReadMcpResourceTool", args: { server: "everything", uri } },
        {
          harness: await loadHarness("claude-code", { builtinDir: HARNESSES }),
          ctx: ws.ctx,
          emit() {},
        },
      );
      assert.equal(result.isError, false, result.text);
      const [part] = JSON.parse(result.text).contents;
      assert.match(await Deno.readTextFile(part.blobSavedTo), /^Resource 7: This is a base64 blob/);
      assert.match(
        part.text,
        /^\[Resource from everything at demo:\/\/resource\/dynamic\/blob\/7\] Binary content \(text\/plain, \d+ bytes\) saved to /,
      );
    });
    await t.step("/mcp__everything__args-prompt sends the server's prompt", async () => {
      const printed: string[] = [];
      const ctx = {
        session: () => ({ mcp: servers }) as unknown as Session,
        print: (lines: string[]) => printed.push(...lines),
        style: makeStyle(false),
        interruptible: <T>(task: (s: AbortSignal) => Promise<T>) =>
          task(new AbortController().signal),
      } as unknown as CommandContext;
      assert.deepEqual(await runCommand("/mcp__everything__args-prompt Paris France", ctx), {
        prompt: "What's weather in Paris, France?",
      });
      assert.equal(await runCommand("/mcp__everything__args-prompt", ctx), undefined);
      assert.deepEqual(printed.slice(0, 2), [
        "Missing argument city for /mcp__everything__args-prompt",
        "Usage: /mcp__everything__args-prompt <city> [state]",
      ]);
    });
  } finally {
    await servers[Symbol.asyncDispose]();
    await assertNoProcesses(root);
    await Deno.remove(root, { recursive: true });
  }
});
