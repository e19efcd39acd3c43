/**
 * MCP servers in a session (`openSession`): `@modelcontextprotocol/server-filesystem` started
 * from `[mcp_servers]`, shown by `session.mcp`, its tools approved by their approval modes
 * (`prompt` asks, `approve` never asks, `auto` leaves it to `approval_policy`, under which a
 * read-only tool runs and a writing one is asked about), and stopped when the session closes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sessionWorkspace } from "../../lib/session/_test_session.ts";
import { openSession, type SessionEvent } from "../../lib/session/open.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { assertNoProcesses, denoDir, npmServer, serversToml } from "./_servers.ts";

const call = (id: string, tool: string, args: Record<string, unknown>) => ({
  id,
  name: `mcp__fs__${tool}`,
  args,
});

Deno.test("a session starts its MCP servers, applies their approval modes and stops them", async () => {
  await using model = await startFakeProvider([
    {
      reply: {
        tool_calls: [
          call("c_list", "list_directory", { path: "." }),
          call("c_mkdir", "create_directory", { path: "made" }),
          call("c_write", "write_file", { path: "w.txt", content: "x" }),
          call("c_read", "read_text_file", { path: "notes.txt" }),
        ],
      },
    },
    { expect: { last_tool_result_contains: "the hare naps" }, reply: { text: "done" } },
  ]);
  await using ws = await sessionWorkspace(model.baseUrl);
  const dir = await denoDir();
  const servers = serversToml({
    fs: npmServer("filesystem", [ws.cwd], dir, {
      default_tools_approval_mode: "auto",
      tools: {
        list_directory: { approval_mode: "prompt" },
        create_directory: { approval_mode: "approve" },
      },
    }),
  });
  await Deno.writeTextFile(join(ws.home, "config.toml"), `\n${servers}\n`, { append: true });
  await Deno.writeTextFile(join(ws.cwd, "notes.txt"), "the hare naps\n");
  const asked: Array<{ callId: string; reason: string }> = [];
  const events: SessionEvent[] = [];
  const session = await openSession(
    { cwd: ws.cwd, harness: "native", approval: "untrusted" },
    {
      onEvent: (e) => events.push(e),
      approve: ({ callId, question }) => {
        asked.push({ callId, reason: question.reason });
        return Promise.resolve(callId === "c_write" ? "deny" : "once");
      },
    },
    { env: ws.env },
  );
  try {
    const outcome = await session.prompt("look around", new AbortController().signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    assert.deepEqual(model.failures, []);
    assert.deepEqual(asked, [
      {
        callId: "c_list",
        reason: 'approval_mode in [mcp_servers.fs.tools.list_directory] is "prompt": every ' +
          "call of list_directory is asked about",
      },
      { callId: "c_write", reason: "approval_policy is untrusted" },
    ]);
    assert.ok((await Deno.stat(join(ws.cwd, "made"))).isDirectory, "approve ran without asking");
    await assert.rejects(Deno.stat(join(ws.cwd, "w.txt")), Deno.errors.NotFound);
    const sent = JSON.stringify(model.requests[1].body);
    assert.match(sent, /The user refused to run mcp__fs__write_file/);
    const [view] = session.mcp.servers();
    assert.equal(view.status, "ready");
    assert.ok(view.tools.some((t) => t.name === "read_text_file"));
    assert.equal(events.filter((e) => e.type === "warning").length, 0);
  } finally {
    await session[Symbol.asyncDispose]();
  }
  await assertNoProcesses(ws.cwd);
});
