import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { OUTPUT_KEEP_BYTES, shellArgs, shellRun } from "./shell_run.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { processAlive, processOnlyVariable } from "./_test_process.ts";
import { until } from "../../tests/e2e/_poll.ts";

Deno.test("shellRun() returns exit code and combined output of a successful command", async () => {
  await using ws = await tempWorkspace();
  const out = await shellRun.run({ command: "echo hello; echo oops >&2" }, ws.ctx);
  assert.equal(out.exitCode, 0);
  assert.equal(out.timedOut, false);
  assert.equal(out.truncated, false);
  assert.equal(out.cwd, ".");
  assert.match(out.output, /hello\n/);
  assert.match(out.output, /oops\n/);
  assert.ok(out.durationMs >= 0);
});

Deno.test("shellRun() keeps arrival order between stdout and stderr", async () => {
  await using ws = await tempWorkspace();
  const cmd = "echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three";
  const out = await shellRun.run({ command: cmd }, ws.ctx);
  assert.equal(out.output, "one\ntwo\nthree\n");
});

Deno.test("shellRun() reports a non-zero exit as data, not an error", async () => {
  await using ws = await tempWorkspace();
  const out = await shellRun.run({ command: "echo failing; exit 7" }, ws.ctx);
  assert.equal(out.exitCode, 7);
  assert.equal(out.output, "failing\n");
});

Deno.test("shellRun() resolves cwd against the workspace", async () => {
  await using ws = await tempWorkspace({ "sub/marker.txt": "x" });
  const out = await shellRun.run({ command: "pwd; ls", cwd: "sub" }, ws.ctx);
  assert.equal(out.output, `${join(ws.dir, "sub")}\nmarker.txt\n`);
  assert.equal(out.cwd, "sub");
});

Deno.test("shellRun() throws ToolError when the working directory does not exist", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    () => shellRun.run({ command: "true", cwd: "missing" }, ws.ctx),
    (err) => err instanceof ToolError && /"missing" does not exist/.test(err.message),
  );
});

Deno.test("shellRun() throws ToolError when the shell cannot be started", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    () => shellRun.run({ command: "true", shell: "/no/such/shell" }, ws.ctx),
    (err) => err instanceof ToolError && err.message.includes("/no/such/shell"),
  );
});

Deno.test("shellRun() passes only the context environment", async () => {
  await using ws = await tempWorkspace();
  ws.ctx.env.OI_MARK = "marked";
  delete ws.ctx.env.HOME;
  const name = processOnlyVariable(ws.ctx.env);
  const out = await shellRun.run(
    { command: `echo "$OI_MARK"; printenv ${name} || echo unset` },
    ws.ctx,
  );
  assert.equal(out.output, "marked\nunset\n", `${name} came from the test process`);
});

Deno.test({
  name: "shellRun() kills the process group and reports timedOut on timeout",
  ignore: Deno.build.os !== "linux",
  fn: killsGroupOnTimeout,
});

async function killsGroupOnTimeout() {
  await using ws = await tempWorkspace();
  const pidFile = join(ws.dir, "bg.pid");
  const cmd = `sleep 30 & echo $! > ${pidFile}; echo started; wait`;
  const t0 = performance.now();
  const out = await shellRun.run({ command: cmd, timeout_ms: 300 }, ws.ctx);
  assert.ok(performance.now() - t0 < 5000);
  assert.equal(out.timedOut, true);
  assert.equal(out.exitCode, null);
  assert.equal(out.timeoutMs, 300);
  assert.equal(out.output, "started\n");
  const pid = Number(await Deno.readTextFile(pidFile));
  await until(
    "the background child to end with the timeout",
    async () => !(await processAlive(pid)),
    5_000,
  );
}

Deno.test("shellRun() min_timeout_ms raises but never lowers the timeout", async () => {
  await using ws = await tempWorkspace();
  const low = await shellRun.run({ command: "true", min_timeout_ms: 10 }, ws.ctx);
  assert.equal(low.timeoutMs, 120_000);
  const high = await shellRun.run({ command: "true", timeout_ms: 50, min_timeout_ms: 900 }, ws.ctx);
  assert.equal(high.timeoutMs, 900);
});

Deno.test("shellRun() does not wait for background children that keep the pipes open", async () => {
  await using ws = await tempWorkspace();
  const t0 = performance.now();
  const out = await shellRun.run({ command: "sleep 5 & echo parent" }, ws.ctx);
  assert.ok(performance.now() - t0 < 3000);
  assert.equal(out.exitCode, 0);
  assert.equal(out.output, "parent\n");
});

Deno.test("shellRun() rejects with the abort reason when the signal aborts", async () => {
  const ac = new AbortController();
  await using ws = await tempWorkspace({}, { signal: ac.signal });
  const started = join(ws.dir, "started");
  const running = shellRun.run({ command: `touch '${started}'; sleep 30` }, ws.ctx);
  await until(`${started} to appear`, () => Deno.stat(started).then(() => true, () => false));
  const t0 = performance.now();
  ac.abort(new Error("stop now"));
  await assert.rejects(() => running, /stop now/);
  assert.ok(performance.now() - t0 < 5000);
});

Deno.test("shellRun() keeps head and tail of a long output with a truncation marker", async () => {
  await using ws = await tempWorkspace();
  const total = OUTPUT_KEEP_BYTES * 3;
  const cmd =
    `printf 'A%.0s' $(seq 1 ${OUTPUT_KEEP_BYTES}); head -c ${OUTPUT_KEEP_BYTES} /dev/zero | tr '\\0' M;` +
    ` printf 'Z%.0s' $(seq 1 ${OUTPUT_KEEP_BYTES})`;
  const out = await shellRun.run({ command: cmd }, ws.ctx);
  assert.equal(out.truncated, true);
  assert.ok(out.output.startsWith("A".repeat(OUTPUT_KEEP_BYTES) + "\n[… "));
  assert.ok(out.output.endsWith("]\n" + "Z".repeat(OUTPUT_KEEP_BYTES)));
  assert.ok(out.output.includes(`[… ${total - 2 * OUTPUT_KEEP_BYTES} bytes truncated …]`));
  assert.ok(!out.output.includes("M"));
});

Deno.test("shellRun() returns only head and tail of a 100 MB output", async () => {
  await using ws = await tempWorkspace();
  const total = 100_000_000;
  const out = await shellRun.run({ command: `head -c ${total} /dev/zero | tr '\\0' x` }, ws.ctx);
  assert.equal(out.exitCode, 0);
  assert.equal(out.truncated, true);
  const marker = `\n[… ${total - 2 * OUTPUT_KEEP_BYTES} bytes truncated …]\n`;
  assert.equal(out.output, "x".repeat(OUTPUT_KEEP_BYTES) + marker + "x".repeat(OUTPUT_KEEP_BYTES));
});

Deno.test("shellRun() runs a login shell when asked", async () => {
  await using ws = await tempWorkspace();
  const out = await shellRun.run(
    { command: "shopt -q login_shell && echo login", login: true },
    ws.ctx,
  );
  assert.equal(out.output, "login\n");
  const plain = await shellRun.run({ command: "shopt -q login_shell || echo plain" }, ws.ctx);
  assert.equal(plain.output, "plain\n");
});

Deno.test("shellArgs() picks flags by shell family", () => {
  assert.deepEqual(shellArgs("/bin/zsh", true), ["-lc"]);
  assert.deepEqual(shellArgs("sh", false), ["-c"]);
  assert.deepEqual(shellArgs("pwsh", false), ["-NoProfile", "-Command"]);
  assert.deepEqual(shellArgs("C:\\Windows\\cmd.exe", false), ["/c"]);
});
