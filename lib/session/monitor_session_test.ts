import assert from "node:assert/strict";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";

/** The texts of the tool results of a session's events, in order. */
const toolResults = (events: SessionEvent[]) =>
  events.flatMap((e) => e.type === "tool_end" ? [e.text] : []);

Deno.test("Claude Code's Monitor returns at a command's first line, or when its timeout passes", async () => {
  const monitor = (args: Record<string, unknown>) => ({ name: "Monitor", args });
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "ToolSearch", args: { query: "select:Monitor" } }] } },
    {
      reply: {
        tool_calls: [
          monitor({
            description: "server",
            command: "sleep 0.3; echo ready; echo more; sleep 30",
          }),
          monitor({ description: "quiet", command: "sleep 30", timeout_ms: 1000 }),
          monitor({ description: "short", command: "exit 3" }),
        ],
      },
    },
    { reply: { text: "Done." } },
  ]);
  await using ws = await sessionWorkspace(`${fake.origin}/v1`);
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "claude-code", sandbox: "workspace-write", approval: "never" },
    { onEvent: (e) => events.push(e) },
    { env: ws.env },
  );
  const outcome = await session.prompt("watch them", new AbortController().signal);
  const results = toolResults(events);
  assert.equal(outcome.status, "completed", results.join("\n---\n"));
  assert.deepEqual(fake.failures, []);
  assert.match(
    results[1],
    /^Monitor task \S+ \(server\) saw: ready$/,
  );
  assert.match(
    results[2],
    /^Monitor task \S+ \(quiet\) printed nothing within 1000 ms; it is still running\.$/,
  );
  assert.match(
    results[3],
    /^Monitor task \S+ \(short\) ended with exit code 3 before printing a line\.$/,
  );
});

Deno.test("Qwen Code's monitor, reached through tool_call, reports the first line of its command", async () => {
  await using fake = await startFakeProvider([
    {
      reply: {
        tool_calls: [{
          name: "tool_call",
          args: {
            name: "monitor",
            arguments: {
              command: "sleep 0.2; echo 'listening on 8080'; sleep 30",
              description: "dev",
            },
          },
        }],
      },
    },
    { reply: { text: "Done." } },
  ]);
  await using ws = await sessionWorkspace(`${fake.origin}/v1`);
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "qwen-code", sandbox: "workspace-write", approval: "never" },
    { onEvent: (e) => events.push(e) },
    { env: ws.env },
  );
  const outcome = await session.prompt("watch it", new AbortController().signal);
  const results = toolResults(events);
  assert.equal(outcome.status, "completed", results.join("\n---\n"));
  assert.deepEqual(fake.failures, []);
  assert.match(results[0], /Monitor \S+ \(dev\) event: listening on 8080/);
});
