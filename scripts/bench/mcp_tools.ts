// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * What an MCP server with many tools costs the first request: spawn to first model request of
 * `interpreter exec` with a generated stdio MCP server of 500 tools (each with a description and
 * a small schema), beside the same server with 1 tool and beside no server, interleaved (median
 * of 7). The server is a short Python program answering JSON-RPC lines, so that its own start is
 * small and the figure is the interpreter's. Targets: 500 tools at most 1.2x no server (the
 * issue's figure), and 500 tools at most 1.2x 1 tool (the part the tool count adds). Quick mode
 * (BENCH_QUICK=1 or --quick): 3 rounds.
 *
 *   deno run -A scripts/bench/mcp_tools.ts [--quick]
 */
import { join } from "node:path";
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { benchLine, fakeProviderConfig, isQuick, median, ms, REPO, sample } from "./_measure.ts";
import { untilFirstRequest } from "./_one_liner.ts";

const RUNS = isQuick() ? 3 : 7;
const TARGET_RATIO = 1.2;
const TOOLS = 500;

/** A stdio MCP server (newline-delimited JSON-RPC) offering `count` tools named tool_N. */
const SERVER = `
import json, sys
count = int(sys.argv[1])
tools = [{"name": f"tool_{i}", "description": f"Looks up record {i} of the inventory and returns its fields.",
          "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "Record id"},
                          "verbose": {"type": "boolean"}}, "required": ["id"]}} for i in range(count)]
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "bench", "version": "1.0.0"}}
    elif method == "tools/list":
        result = {"tools": tools}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "ok"}]}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\\n")
    sys.stdout.flush()
`;

/** `[mcp_servers.bench]` running the generated server with `tools` tools; none for 0. */
function mcpConfig(server: string, tools: number): string[] {
  if (tools === 0) return [];
  return [
    "",
    "[mcp_servers.bench]",
    `command = "python3"`,
    `args = [${JSON.stringify(server)}, "${tools}"]`,
  ];
}

/** Ms from spawning `interpreter exec` to the provider's first request, and its tool count. */
async function firstRequest(
  dirs: { home: string; work: string; server: string },
  tools: number,
): Promise<{ ms: number; sent: number }> {
  await using provider: FakeProvider = startFakeProvider([{ reply: { text: "OK" } }]);
  const config = fakeProviderConfig(provider.baseUrl).trimEnd().split("\n");
  await Deno.writeTextFile(
    join(dirs.home, "config.toml"),
    [...config, ...mcpConfig(dirs.server, tools), ""].join("\n"),
  );
  const elapsed = await untilFirstRequest(provider, {
    cmd: `${REPO}/scripts/interpreter`,
    args: ["exec", "--skip-git-repo-check", "say OK"],
    cwd: dirs.work,
    env: { OPENINTERPRETER_HOME: dirs.home, FAKE_KEY: "fake-key", NO_COLOR: "1" },
  });
  const body = provider.requests[0].body as { tools?: unknown[] };
  return { ms: elapsed, sent: body.tools?.length ?? 0 };
}

async function main(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "bench_mcp_" });
  try {
    const dirs = { home: join(root, "home"), work: join(root, "work"), server: join(root, "s.py") };
    await Deno.mkdir(dirs.home);
    await Deno.mkdir(dirs.work);
    await Deno.writeTextFile(dirs.server, SERVER);
    const sent = new Map<number, number>();
    const measure = (tools: number) => async () => {
      const got = await firstRequest(dirs, tools);
      sent.set(tools, got.sent);
      return got.ms;
    };
    const [none, one, many] = (await sample(RUNS, [measure(0), measure(1), measure(TOOLS)])).map(
      median,
    );
    console.log(`no MCP server       ${ms(none)}   tools sent: ${sent.get(0)}`);
    console.log(`1-tool server       ${ms(one)}   tools sent: ${sent.get(1)}`);
    console.log(`${TOOLS}-tool server     ${ms(many)}   tools sent: ${sent.get(TOOLS)}`);
    console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    console.log(
      benchLine(`first request, MCP server of ${TOOLS} tools / none`, many / none, TARGET_RATIO),
    );
    console.log(
      benchLine(`first request, MCP server of ${TOOLS} tools / 1 tool`, many / one, TARGET_RATIO),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
