import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { capTokens } from "./exec_session.ts";
import { shellRun } from "./shell_run.ts";
import { shellWriteStdin } from "./write_stdin.ts";
import { jobsWorkspace } from "./_test_jobs.ts";

Deno.test("capTokens() keeps the start and end with Codex's marker, and counts the original", () => {
  assert.deepEqual(capTokens("short", 10), { text: "short", originalTokens: 2 });
  const long = "a".repeat(100) + "b".repeat(100);
  const cut = capTokens(long, 10);
  assert.equal(cut.originalTokens, 50);
  assert.equal(cut.text, `${"a".repeat(20)}…40 tokens truncated…${"b".repeat(20)}`);
  // A multi-byte character cut in half is dropped, not garbled.
  assert.doesNotMatch(capTokens("é".repeat(100), 5).text, /\uFFFD/);
});

Deno.test("a session command returns at once when it exits within its yield", async () => {
  await using ws = await jobsWorkspace();
  const out = await shellRun.run(
    { command: "echo hi; exit 3", session: true, yield_ms: 5000 },
    ws.ctx,
  );
  assert.equal(out.exitCode, 3);
  assert.equal(out.sessionId, null);
  assert.equal(out.output, "hi\n");
  assert.ok(out.durationMs < 4000, `took ${out.durationMs} ms`);
});

Deno.test("write_stdin: an unknown id and input to a session without tty are refused in Codex's words", async () => {
  await using ws = await jobsWorkspace();
  await assert.rejects(
    () => shellWriteStdin.run({ session_id: 7, chars: "x" }, ws.ctx),
    (e) => e instanceof ToolError && e.message === "Unknown process id 7",
  );
  const started = await shellRun.run(
    { command: "sleep 30", session: true, yield_ms: 250 },
    ws.ctx,
  );
  assert.equal(typeof started.sessionId, "number");
  await assert.rejects(
    () => shellWriteStdin.run({ session_id: started.sessionId!, chars: "x" }, ws.ctx),
    (e) => e instanceof ToolError && /stdin is closed for this session/.test(e.message),
  );
});

Deno.test("write_stdin: a tty session reads what is typed, and exits with its code", async () => {
  await using ws = await jobsWorkspace();
  const started = await shellRun.run(
    { command: 'read line; echo "got $line"; exit 5', session: true, tty: true, yield_ms: 250 },
    ws.ctx,
  );
  const id = started.sessionId!;
  assert.equal(typeof id, "number");
  const out = await shellWriteStdin.run({ session_id: id, chars: "abc\n", yield_ms: 5000 }, ws.ctx);
  assert.match(out.output, /got abc/);
  assert.equal(out.exitCode, 5);
  assert.equal(out.sessionId, null);
  await assert.rejects(() => shellWriteStdin.run({ session_id: id }, ws.ctx), /Unknown process id/);
});
