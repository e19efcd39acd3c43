/**
 * MCP tools from real servers, called by the scripted model through claude-code (Messages),
 * native (Responses) and qwen-code (Chat): `@modelcontextprotocol/server-everything`'s echo, its
 * image tool and a slow tool past `tool_timeout_sec`, and `@modelcontextprotocol/server-filesystem`
 * reading a file of the workspace. One pair of servers serves all three harnesses.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../../lib/harness/load.ts";
import { runTurn } from "../../lib/loop/agent_loop.ts";
import { allowAll, freshState } from "../../lib/loop/_test_loop.ts";
import { McpServers } from "../../lib/mcp/mcp_servers.ts";
import { openProvider } from "../../lib/providers/mod.ts";
import { testSettings } from "../../lib/providers/_testing.ts";
import type { WireApi } from "../../lib/providers/types.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { assertNoProcesses, denoDir, npmServer } from "./_servers.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses/", import.meta.url));
const IMAGE_START = "iVBORw0KGgo"; // the PNG signature in base64

const CALLS = [
  { id: "c_echo", name: "mcp__everything__echo", args: { message: "ping" } },
  { id: "c_image", name: "mcp__everything__get-tiny-image", args: {} },
  {
    id: "c_slow",
    name: "mcp__everything__trigger-long-running-operation",
    args: { duration: 3, steps: 3 },
  },
  { id: "c_read", name: "mcp__files__read_text_file", args: { path: "notes.txt" } },
];

/** The tool results of a request body, as text, in whichever wire format it is. */
function resultTexts(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages ?? body.input);
}

Deno.test("MCP tools of real servers are called through claude-code, native and qwen-code", async (t) => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_mcp_harness_" }));
  const cwd = join(root, "ws");
  await Deno.mkdir(cwd);
  await Deno.writeTextFile(join(cwd, "notes.txt"), "the tortoise wins\n");
  const warnings: string[] = [];
  const dir = await denoDir();
  const servers = new McpServers({
    everything: npmServer("everything", ["stdio", root], dir, { tool_timeout_sec: 1 }),
    files: npmServer("filesystem", [cwd], dir),
  }, {
    home: join(root, "home"),
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd,
    warn: (m) => warnings.push(m),
  });
  try {
    for (
      const [harnessId, wire] of [["claude-code", "messages"], ["native", "responses"], [
        "qwen-code",
        "chat",
      ]] as Array<[string, WireApi]>
    ) {
      await t.step(`${harnessId} over ${wire}`, async () => {
        const harness = await loadHarness(harnessId, { builtinDir: HARNESSES });
        await using fake = startFakeProvider([
          { expect: { tools_include: CALLS.map((c) => c.name) }, reply: { tool_calls: CALLS } },
          { expect: { last_tool_result_contains: "the tortoise wins" }, reply: { text: "done" } },
        ]);
        const base = wire === "messages" ? fake.origin : fake.baseUrl;
        const provider = await openProvider(testSettings(base, wire, { compat: {} }));
        const signal = new AbortController().signal;
        const outcome = await runTurn(freshState(), {
          provider,
          harness,
          ctx: { cwd, signal, env: {}, state: new Map(), fs: inProcessFs },
          emit: () => {},
          toolSources: servers.sources,
          toolHooks: allowAll,
          signal,
        });
        assert.deepEqual(fake.failures, []);
        assert.deepEqual(outcome, { status: "completed", finalText: "done" });
        const sent = resultTexts(fake.requests[1].body as Record<string, unknown>);
        assert.match(sent, /Echo: ping/);
        assert.match(sent, /did not answer within 1 s, so it was cancelled/);
        assert.ok(sent.includes(IMAGE_START), "the image went out as an image");
        assert.doesNotMatch(sent, /"text":"[^"]*iVBORw0KGgo/, "not as text");
      });
    }
  } finally {
    await servers[Symbol.asyncDispose]();
    await assertNoProcesses(root);
    await Deno.remove(root, { recursive: true });
  }
  assert.equal(warnings.length, 3, warnings.join("\n"));
  assert.match(
    warnings[0],
    /^MCP server "everything" did not answer trigger-long-running-operation within 1 s; the call was cancelled; log: .*mcp-everything\.log$/,
  );
});
