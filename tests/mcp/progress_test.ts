/**
 * MCP tool calls as people see them: `interpreter exec`'s progress on stderr and the REPL's
 * transcript (piped stdin) show the server, the tool, its arguments and a preview of its answer,
 * and a failed call with its error, as they show a command.
 */
import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, LAUNCHER, tempDirs } from "../e2e/_harness_env.ts";
import { assertNoProcesses, serversToml, testServer } from "./_servers.ts";

/** The model calls `echo` and `refuse` of the server `tools`, then answers. */
function script() {
  return startFakeProvider([
    {
      reply: {
        tool_calls: [
          { id: "c1", name: "mcp__tools__echo", args: { text: "ping" } },
          { id: "c2", name: "mcp__tools__refuse", args: { text: "no" } },
        ],
      },
    },
    { expect: { last_tool_result_contains: "refused: no" }, reply: { text: "Echoed." } },
  ]);
}

/** `interpreter` in the REPL with `stdin` piped in: its exit code and its transcript. */
async function pipedRepl(cwd: string, home: string, stdin: string) {
  const child = new Deno.Command(LAUNCHER, {
    cwd,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("exec's progress and the REPL's transcript show an MCP call's arguments and answer", async () => {
  await using dirs = tempDirs();
  const marker = `oi-mcp-progress-${crypto.randomUUID().slice(0, 8)}`;
  const servers = serversToml({ tools: testServer("echo", marker) });
  await using execFake = await script();
  await using replFake = await script();
  const repo = await dirs.add(fixtureRepo("habits"));
  const execHome = await dirs.add(fakeHome(execFake.baseUrl, "chat", servers));
  const replHome = await dirs.add(fakeHome(replFake.baseUrl, "chat", servers));
  const [exec, repl] = await Promise.all([
    interpreter(["exec", "echo ping"], { cwd: repo, home: execHome }),
    pipedRepl(repo, replHome, "echo ping\n"),
  ]);

  assert.equal(exec.code, 0, exec.stderr);
  assert.equal(exec.stdout.trim(), "Echoed.");
  assert.match(exec.stderr, /^mcp tools\/echo \{"text":"ping"\}$/m);
  assert.match(exec.stderr, /^tools\/echo answered\n {2}echo: ping\n {2}\{"echoed":"ping"\}$/m);
  assert.match(exec.stderr, /^mcp tools\/refuse \{"text":"no"\}$/m);
  assert.match(exec.stderr, /^mcp__tools__refuse failed:\n {2}refused: no$/m);
  assert.deepEqual(execFake.failures, []);

  assert.equal(repl.code, 0, repl.stdout + repl.stderr);
  assert.match(repl.stdout, /^• mcp tools\/echo \{"text":"ping"\}$/m);
  assert.match(repl.stdout, /^ {2}✓ answered\n {4}echo: ping\n/m);
  assert.match(repl.stdout, /^• mcp tools\/refuse \{"text":"no"\}$/m);
  assert.match(repl.stdout, /^ {2}✗ mcp__tools__refuse failed\n {4}refused: no$/m);
  assert.match(repl.stdout, /Echoed\./);
  assert.deepEqual(replFake.failures, []);
  await assertNoProcesses(marker);
});
