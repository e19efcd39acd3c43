/**
 * An MCP server's prompt as a REPL command, end to end: the REPL (stdin piped) starts
 * `@modelcontextprotocol/server-everything`, `/mcp__everything__args-prompt Paris` sends the
 * server's text as the user's prompt, and a missing argument prints the usage and sends nothing.
 */
import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER, tempDirs } from "../e2e/_harness_env.ts";
import { assertNoProcesses, denoDir, npmServer, serversToml } from "./_servers.ts";

Deno.test("the REPL sends /mcp__everything__args-prompt ARGS as the server's prompt", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    { expect: { user_contains: "What's weather in Paris?" }, reply: { text: "Sunny there." } },
  ]);
  // `repo` in the server's arguments marks its process for assertNoProcesses.
  const servers = serversToml({
    everything: npmServer("everything", ["stdio", repo], await denoDir(), { required: true }),
  });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat", `${servers}\n`));
  const child = new Deno.Command(LAUNCHER, {
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(
      "/mcp__everything__args-prompt\n/mcp__everything__args-prompt Paris\n",
    ),
  );
  await writer.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, stdout + new TextDecoder().decode(out.stderr));
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.requests.length, 1, "only the complete command reaches the model");
  assert.match(stdout, /Missing argument city for \/mcp__everything__args-prompt\n/);
  assert.match(stdout, /Usage: \/mcp__everything__args-prompt <city> \[state\]/);
  assert.match(stdout, /Sunny there\./);
  await assertNoProcesses(repo);
});
