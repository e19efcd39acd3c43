import assert from "node:assert/strict";
import { runToEnd } from "./run_to_end.ts";

const cwd = Deno.cwd();

Deno.test("runToEnd() feeds stdin and returns the exit code and both outputs; the parent's environment is kept unless cleared", async () => {
  const out = await runToEnd("sh", ["-c", 'cat; echo "$X:${PATH:+path}" >&2; exit 3'], {
    cwd,
    env: { X: "x" },
    stdin: "héllo",
  });
  assert.deepEqual(out, { code: 3, stdout: "héllo", stderr: "x:path\n", timedOut: false });
  const env = (text: string) => text.split("\n").filter((l) => /^[A-Z]/.test(l)).sort();
  const cleared = await runToEnd("env", [], { cwd, env: { X: "x" }, clearEnv: true });
  assert.deepEqual(env(cleared.stdout), ["X=x"]);
  const kept = await runToEnd("env", [], { cwd, env: { X: "x" } });
  assert.ok(env(kept.stdout).length > 1, kept.stdout);
  assert.ok(env(kept.stdout).includes("X=x"), kept.stdout);
});

Deno.test("runToEnd() kills the whole process group at the time limit, a background child too", async () => {
  const started = Date.now();
  // The background sleep holds stdout open: only killing its group ends the run early.
  const out = await runToEnd("sh", ["-c", "sleep 30 & echo started; wait"], {
    cwd,
    timeoutMs: 300,
  });
  assert.equal(out.timedOut, true);
  assert.equal(out.stdout, "started\n");
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  // Control: within its time limit a run is not marked timed out.
  const quick = await runToEnd("sh", ["-c", "echo done"], { cwd, timeoutMs: 10_000 });
  assert.deepEqual(quick, { code: 0, stdout: "done\n", stderr: "", timedOut: false });
});

Deno.test("runToEnd() with a grace sends SIGTERM first, then kills the group when the grace passed", async () => {
  const out = await runToEnd(
    "sh",
    ["-c", 'trap "echo term; exit 0" TERM; sleep 30 & echo started; wait'],
    { cwd, timeoutMs: 300, graceMs: 300 },
  );
  assert.equal(out.timedOut, true);
  assert.equal(out.code, 0, "the program ended itself on SIGTERM");
  assert.equal(out.stdout, "started\nterm\n");
});

Deno.test("runToEnd() stops on abort, and refuses to start once aborted", async () => {
  const controller = new AbortController();
  const run = runToEnd("sh", ["-c", "echo started; sleep 30"], {
    cwd,
    signal: controller.signal,
  });
  controller.abort(new Error("stopped by the test"));
  const out = await run;
  assert.equal(out.timedOut, false);
  assert.notEqual(out.code, 0);
  await assert.rejects(
    runToEnd("sh", ["-c", "true"], { cwd, signal: controller.signal }),
    /stopped by the test/,
  );
});
