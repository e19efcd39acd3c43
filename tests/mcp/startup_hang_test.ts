/**
 * An MCP server that hangs at start-up, having started helpers of its own (one of which ignores
 * SIGTERM), is stopped with its whole process group once its startup timeout passes: no process
 * of its group is left.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { McpServers } from "../../lib/mcp/mcp_servers.ts";
import { testServer } from "./_servers.ts";
import { until } from "../e2e/_poll.ts";

/** The processes (zombies left out) among `pids`, and those in process group `pgid`. */
async function living(pids: number[], pgid: number): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,pgid=,stat=,args="] }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) => {
    const [pid, group, stat] = line.trim().split(/\s+/);
    if (!stat || stat.startsWith("Z")) return false;
    return pids.includes(Number(pid)) || Number(group) === pgid;
  });
}

Deno.test("a server that hangs at start-up is killed with its process group after its timeout", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_mcp_hang_" }));
  const warnings: string[] = [];
  const servers = new McpServers({
    stuck: testServer("hang_children", root, { startup_timeout_sec: 1 }),
  }, {
    home: join(root, "home"),
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: root,
    warn: (m) => warnings.push(m),
  });
  try {
    const pidsFile = join(root, "pids.json");
    const source = servers.sources[0];
    assert.deepEqual(await source.tools(new AbortController().signal), []);
    const { pid, children } = JSON.parse(await Deno.readTextFile(pidsFile));
    assert.equal(children.length, 3);
    assert.match(warnings[0], /"stuck" did not start: It did not answer initialize within 1 s/);
    let left: string[] = [];
    // On time-out the assertion below names the processes left.
    await until(
      "the server's group to end",
      async () => (left = await living([pid, ...children], pid)).length === 0,
      10_000,
    ).catch(() => {});
    assert.deepEqual(left, [], "no process of the server's group is left");
  } finally {
    await servers[Symbol.asyncDispose]();
    await Deno.remove(root, { recursive: true });
  }
});
