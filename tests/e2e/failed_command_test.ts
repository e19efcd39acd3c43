import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";

// Claude Code flags a failed Bash result with is_error and reads `Exit code N` then the output
// (../shared/reference/request-shapes.md §1 results table, public transcripts).
Deno.test("exec with claude-code on the messages wire sends a failed command back with is_error", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider([
    {
      reply: {
        tool_calls: [{ name: "Bash", args: { command: "sh -c 'echo oops >&2; exit 3'" } }],
      },
    },
    { expect: { last_tool_result_contains: "Exit code 3\noops" }, reply: { text: "It failed." } },
  ]);
  const home = await fakeHome(fake.origin, "messages");
  try {
    const result = await interpreter(["exec", "--harness", "claude-code", "run it"], {
      cwd: repo,
      home,
    });
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.requests.length, 2);
    const body = fake.requests[1].body as {
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
    };
    const results = body.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((b) => b.type === "tool_result") : []
    );
    assert.equal(results.length, 1);
    assert.equal(results[0].is_error, true);
    assert.match(JSON.stringify(results[0].content), /Exit code 3\\noops/);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
