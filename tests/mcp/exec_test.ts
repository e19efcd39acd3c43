/**
 * MCP servers in `interpreter exec` (a subprocess without a terminal): a required server that
 * cannot start fails the run with exit 1, its error and its log; a tool whose approval mode is
 * `prompt` is refused with a message the model reads; past `mcp_defer_tokens` the tools go
 * behind Qwen Code's tool_search.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "../e2e/_harness_env.ts";
import { assertNoProcesses, denoDir, npmServer, serversToml } from "./_servers.ts";

Deno.test("interpreter exec fails with exit 1 when a required MCP server does not start", async () => {
  await using dirs = tempDirs();
  await using fake = await startFakeProvider([{ reply: { text: "never asked" } }]);
  const repo = await dirs.add(fixtureRepo("habits"));
  const missing = join(repo, "no-such-mcp-server");
  const home = await dirs.add(fakeHome(
    fake.baseUrl,
    "chat",
    serversToml({ docs: { command: missing, required: true }, extra: { command: missing } }),
  ));
  const result = await interpreter(["exec", "hello"], { cwd: repo, home });
  assert.equal(result.code, 1, result.stderr);
  const log = join(home, "logs", "mcp-docs.log");
  assert.match(
    result.stderr,
    new RegExp(
      `^error: MCP server "docs" is required but did not start: Cannot run "${missing}": the ` +
        "command was not found$",
      "m",
    ),
  );
  assert.match(result.stderr, new RegExp(`^hint: See its log: ${log}; then fix`, "m"));
  assert.equal(fake.requests.length, 0);
});

Deno.test("interpreter exec refuses an MCP tool in prompt mode and defers MCP tools past mcp_defer_tokens", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    {
      expect: { tools_include: ["tool_search"] },
      reply: { tool_calls: [{ id: "c1", name: "mcp__fs__list_directory", args: { path: "." } }] },
    },
    {
      expect: { last_tool_result_contains: "No one is available to approve" },
      reply: { text: "could not look" },
    },
  ]);
  const servers = serversToml({
    fs: npmServer("filesystem", [repo], await denoDir(), { default_tools_approval_mode: "prompt" }),
  });
  const home = await dirs.add(fakeHome(
    fake.baseUrl,
    "chat",
    `harness = "qwen-code"\nmcp_defer_tokens = 1\n${servers}\n`,
  ));
  const result = await interpreter(["exec", "list the files"], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "could not look");
  assert.deepEqual(fake.failures, []);
  const tools = JSON.stringify((fake.requests[0].body as { tools: unknown }).tools);
  assert.doesNotMatch(tools, /mcp__fs__/, "deferred: not sent directly");
  const answer = JSON.stringify(fake.requests[1].body);
  assert.match(
    answer,
    /No one is available to approve mcp__fs__list_directory \(default_tools_approval_mode in \[mcp_servers.fs\] is \\"prompt\\"/,
  );
  await assertNoProcesses(repo);
});
