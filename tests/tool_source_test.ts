/**
 * A tool source proves the seam MCP servers will use: one tool, offered through `native`
 * (Responses), `claude-code` (Messages) and `qwen-code` (Chat) under each harness's naming
 * (`source_tool_name`), sent in the wire's own tool format, called by the scripted model, run
 * with its call id, and passed through the hook chain like any other call.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import { runTurn } from "../lib/loop/agent_loop.ts";
import { freshState } from "../lib/loop/_test_loop.ts";
import type { ResolvedHookCall } from "../lib/loop/tool_hooks.ts";
import { sourceToolName } from "../lib/loop/tool_sources.ts";
import { openProvider } from "../lib/providers/mod.ts";
import { testSettings } from "../lib/providers/_testing.ts";
import type { WireApi } from "../lib/providers/types.ts";
import type { ToolSource } from "../lib/tools/tool_source.ts";
import { inProcessFs } from "../sandbox/file_system.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import { wireTools } from "./_wire_tools.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

const SCHEMA = {
  type: "object",
  properties: { text: { type: "string", description: "What to echo" } },
  required: ["text"],
};

/** A source with one tool, `echo`, that records how it was run. */
function probeSource(runs: Array<{ input: unknown; callId: string }>): ToolSource {
  return {
    id: "probe",
    tools: () =>
      Promise.resolve([{
        name: "echo",
        description: "Echoes its text back",
        inputSchema: SCHEMA,
        kind: "read",
        mutates: false,
        run(input, ctx) {
          runs.push({ input, callId: ctx.callId });
          return Promise.resolve({ text: `echo: ${input.text}` });
        },
      }]),
  };
}

/** The tool of `body.tools` named `name`, in whichever wire format it is. */
function sentTool(body: Record<string, unknown>, name: string): unknown {
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>;
  return tools.find((t) =>
    t.name === name || (t.function as Record<string, unknown> | undefined)?.name === name
  );
}

const CASES: Array<[string, WireApi]> = [
  ["native", "responses"],
  ["claude-code", "messages"],
  ["qwen-code", "chat"],
];

for (const [id, wire] of CASES) {
  Deno.test(`a tool source's tool is offered and called through ${id} over ${wire}`, async () => {
    const harness = await loadHarness(id, { builtinDir: HARNESSES });
    const name = sourceToolName(harness, "probe", "echo");
    assert.equal(name, "mcp__probe__echo", `${id} names source tools as its vendor does`);
    await using server = startFakeProvider([
      { reply: { tool_calls: [{ id: "call_1", name, args: { text: "ping" } }] } },
      { expect: { last_tool_result_contains: "echo: ping" }, reply: { text: "done" } },
    ]);
    const base = wire === "messages" ? server.origin : server.baseUrl;
    const provider = await openProvider(testSettings(base, wire, { compat: {} }));
    const runs: Array<{ input: unknown; callId: string }> = [];
    const checked: ResolvedHookCall[] = [];
    const cwd = await Deno.makeTempDir({ prefix: "oi_source_" });
    try {
      const signal = new AbortController().signal;
      const outcome = await runTurn(freshState(), {
        provider,
        harness,
        ctx: { cwd, signal, env: {}, state: new Map(), fs: inProcessFs },
        emit: () => {},
        toolSources: [probeSource(runs)],
        toolHooks: () => [{
          name: "approval",
          before: (call) => {
            checked.push(call);
            return Promise.resolve({ action: "allow" });
          },
        }],
        signal,
      });
      assert.deepEqual(server.failures, []);
      assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
    const declaration = { name, description: "Echoes its text back", parameters: SCHEMA };
    const [expected] = wireTools(wire, [declaration]);
    const sent = sentTool(server.requests[0].body as Record<string, unknown>, name);
    assert.deepEqual(sent, expected, `sent in the ${wire} tool format`);
    assert.deepEqual(runs, [{ input: { text: "ping" }, callId: "call_1" }]);
    assert.deepEqual(
      checked.map(({ capability, mutates, input }) => ({ capability, mutates, input })),
      [{ capability: "source:probe/echo", mutates: false, input: { text: "ping" } }],
      "the call passed the hook chain with the source's capability",
    );
  });
}
