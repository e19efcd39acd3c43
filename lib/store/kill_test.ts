import assert from "node:assert/strict";
import { findSessions } from "./list.ts";
import { readSession } from "./read.ts";
import { reopenForAppend } from "./store.ts";
import { tempHome, userEvent } from "./_testing.ts";

const CHILD = new URL("../../tests/fixtures/sessions/append_forever.ts", import.meta.url).pathname;
const REPO = new URL("../..", import.meta.url).pathname;

/** Reads the child's acknowledged counts until one reaches `target` or the deadline passes. */
async function waitForAcks(stdout: ReadableStream<Uint8Array>, target: number): Promise<number> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + 30_000;
  let text = "";
  let acked = 0;
  try {
    while (acked < target) {
      if (Date.now() > deadline) throw new Error(`The writer acknowledged only ${acked} events`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`The writer stopped after ${acked} events`);
      text += value;
      const lines = text.split("\n");
      text = lines.pop()!;
      if (lines.length > 0) acked = Number(lines.at(-1));
    }
    return acked;
  } finally {
    reader.releaseLock();
  }
}

Deno.test("a writer killed with SIGKILL mid-append leaves every acknowledged event readable", async () => {
  await using home = await tempHome();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--allow-read=${home.path}`, `--allow-write=${home.path}`, CHILD, home.path],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let acked: number;
  try {
    acked = await waitForAcks(child.stdout, 400);
  } finally {
    child.kill("SIGKILL");
  }
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  await child.stdout.cancel().catch(() => {});
  assert.equal(status.signal, "SIGKILL", stderr);

  const [summary] = await findSessions(home.path);
  const session = await readSession(summary.file);
  assert.ok(session.events.length >= acked, `${session.events.length} events, ${acked} acked`);
  assert.ok(session.notes.every((n) => /incomplete|interrupted/.test(n)), session.notes.join());
  const last = session.history.at(-1);
  assert.equal(last?.role, "tool_result");

  await using writer = await reopenForAppend(summary.file);
  await writer.append(userEvent("continue"));
  const resumed = await readSession(summary.file);
  assert.ok(resumed.notes.every((n) => !n.startsWith("Skipped")), resumed.notes.join());
  assert.equal(resumed.history.at(-1)?.role, "user");
});
