/**
 * ACP's `session/set_mode` changes the sandbox mode and approval policy in place, driven by the
 * official ACP SDK's client: the MCP server the client gave keeps its process through
 * read-only → workspace-write → read-only → workspace-write, a grant "for this session" given in
 * read-only holds in the wider workspace-write, and a narrower mode asks again (the control).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { startFakeProvider } from "../fake_provider/server.ts";
import type { ScriptTurn } from "../fake_provider/script.ts";
import { testServer } from "../mcp/_servers.ts";
import { fakeHome, fixtureRepo, LAUNCHER, tempDirs } from "./_harness_env.ts";
import { alive, until } from "./_poll.ts";

/** The process whose command line holds `marker` (the MCP test server's own folder). */
async function pidOf(marker: string): Promise<number | undefined> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.includes(marker) && cmdline.includes("_test_server.ts")) return Number(entry.name);
  }
  return undefined;
}

Deno.test("ACP set_mode keeps the MCP server's process and a session grant in a wider mode", async () => {
  const touch: ScriptTurn = {
    reply: { tool_calls: [{ name: "bash", args: { command: "touch granted.txt" } }] },
  };
  const done: ScriptTurn = { reply: { text: "done" } };
  await using model = startFakeProvider([touch, done, touch, done, touch, done]);
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  const marker = await dirs.add(Deno.makeTempDir({ prefix: "oi-acp-mcp-" }));
  const probe = testServer("plain", marker);
  const child = new Deno.Command(LAUNCHER, {
    args: ["acp", "--harness", "pi", "-s", "read-only"],
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "test-key", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const asked: acp.RequestPermissionRequest[] = [];
  const connection = acp.client({ name: "acp-mode-test" })
    .onNotification(acp.methods.client.session.update, () => {})
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      asked.push(params);
      return { outcome: { outcome: "selected", optionId: "acceptForSession" } };
    })
    .connect(acp.ndJsonStream(child.stdin, child.stdout));
  try {
    const { agent } = connection;
    await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    const { sessionId, modes } = await agent.request(acp.methods.agent.session.new, {
      cwd: repo,
      mcpServers: [{ name: "probe", command: probe.command!, args: probe.args!, env: [] }],
    });
    assert.equal(modes?.currentModeId, "read-only");
    let pid: number | undefined;
    await until("the MCP server's process", async () => (pid = await pidOf(marker)) !== undefined);
    const prompt = (text: string) =>
      agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
    const setMode = (modeId: string) =>
      agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });

    await prompt("one");
    assert.equal(asked.length, 1, "read-only asks about touch");
    await setMode("workspace-write");
    assert.equal(await pidOf(marker), pid, "the MCP server kept its process");
    await prompt("two");
    assert.equal(asked.length, 1, "the session grant holds in the wider mode");
    const made = await Deno.stat(join(repo, "granted.txt")).then(() => true, () => false);
    assert.ok(made, "workspace-write let the command write");

    await setMode("read-only");
    await setMode("workspace-write");
    assert.equal(await pidOf(marker), pid);
    assert.ok(alive(pid!));
    await prompt("three");
    assert.equal(asked.length, 2, "the narrower mode dropped the grant: asked again");
    assert.deepEqual(model.failures, []);
  } finally {
    connection.close();
    await child.stdin.close().catch(() => {});
    await child.status;
  }
});
