import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderResult, resolveCall } from "../lib/harness/call.ts";
import { loadHarness } from "../lib/harness/load.ts";
import type { Harness } from "../lib/harness/types.ts";
import { approvalHook, type ApprovalQuestion } from "../lib/approval/hook.ts";
import { inProcessFs } from "../sandbox/file_system.ts";
import { tempWorkspace } from "../lib/tools/_test_workspace.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const claude = await loadHarness("claude-code", { builtinDir: HARNESSES });
const zcode = await loadHarness("zcode", { builtinDir: HARNESSES });

function render(h: Harness, name: string, args: unknown, output: unknown): string {
  return renderResult(resolveCall(h, { name, args }).tool, output);
}

const read = { lines: ["a", "b"], startLine: 1, totalLines: 2, endOfFile: true, unchanged: false };
const run = { exitCode: 0, output: "", timedOut: false, timeoutMs: 120000 };

Deno.test("claude-code Read gives tab-numbered lines and no footer (request-shapes.md §1.5)", () => {
  assert.equal(render(claude, "Read", { file_path: "f" }, read), "1\ta\n2\tb");
  assert.equal(
    render(claude, "Read", { file_path: "f" }, { ...read, lines: ["a"], endOfFile: false }),
    "1\ta",
  );
});

Deno.test("claude-code and zcode send a background Bash to shell.start", () => {
  for (const h of [claude, zcode]) {
    const args = { command: "serve", run_in_background: true, dangerouslyDisableSandbox: true };
    const r = resolveCall(h, { name: "Bash", args });
    assert.equal(r.capability.id, "shell.start");
    assert.deepEqual(r.input, { command: "serve", escalated: true });
    assert.equal(
      renderResult(r.tool, { id: "b1", outputPath: "/tmp/b1.output" }),
      "Command running in background with ID: b1. Output is being written to: /tmp/b1.output. " +
        "To check interim output, use Read on that file path.",
    );
    const fg = resolveCall(h, { name: "Bash", args: { command: "ls", timeout: 5000 } });
    assert.deepEqual(fg.input, { command: "ls", timeout_ms: 5000 });
  }
});

Deno.test("a background Bash with dangerouslyDisableSandbox asks the user, as a foreground one does", async () => {
  for (const h of [claude, zcode]) {
    for (const run_in_background of [false, true]) {
      const args = { command: "serve", run_in_background, dangerouslyDisableSandbox: true };
      const r = resolveCall(h, { name: "Bash", args });
      const asked: ApprovalQuestion[] = [];
      const hook = approvalHook({
        policy: "on-request",
        sandbox: { mode: "workspace-write", enforced: true },
        mutates: () => true,
        ask: ({ question }) => (asked.push(question), Promise.resolve("once")),
      });
      const verdict = await hook({ name: "Bash" }, { capability: r.capability.id, input: r.input });
      assert.deepEqual(verdict, { allow: true, unsandboxed: true });
      assert.equal(asked.length, 1, `${h.id} background=${run_in_background}: the user is asked`);
      assert.equal(asked[0].unsandboxed, true);
      const plain = resolveCall(h, { name: "Bash", args: { command: "serve", run_in_background } });
      const sandboxed = await hook({ name: "Bash" }, {
        capability: plain.capability.id,
        input: plain.input,
      });
      assert.deepEqual(sandboxed, { allow: true, unsandboxed: false }, "control: no escalation");
      assert.equal(asked.length, 1);
    }
  }
});

Deno.test("zcode Bash puts the exit code first and names an empty success", () => {
  assert.equal(render(zcode, "Bash", { command: "x" }, run), "(Bash completed with no output)");
  assert.equal(render(zcode, "Bash", { command: "x" }, { ...run, output: "ok" }), "ok");
  assert.equal(
    render(zcode, "Bash", { command: "x" }, { ...run, exitCode: 2, output: "boom" }),
    "Exit code 2\nboom",
  );
  assert.equal(
    render(zcode, "Bash", { command: "x" }, { ...run, exitCode: null, timedOut: true }),
    "Command timed out after 120 seconds and was killed",
  );
});

Deno.test("zcode Read has no footer and TodoRead answers with a todos object", () => {
  assert.equal(render(zcode, "Read", { file_path: "f" }, read), "1\ta\n2\tb");
  const todos = [{ content: "x", status: "pending", priority: "low" }];
  assert.equal(
    render(zcode, "TodoRead", {}, { todos, oldTodos: todos }),
    '{"todos":[{"content":"x","status":"pending","priority":"low"}]}',
  );
});

Deno.test("zcode Read answers an unchanged whole-file re-read with a reminder, for real", async () => {
  await using ws = await tempWorkspace();
  const dir = ws.dir;
  await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
  const ctx = {
    callId: "test_call",
    progress: () => {},
    cwd: dir,
    signal: new AbortController().signal,
    env: {},
    state: new Map(),
    fs: inProcessFs,
  };
  const read = async () => {
    const call = resolveCall(zcode, { name: "Read", args: { file_path: `${dir}/a.py` } });
    return renderResult(call.tool, await call.capability.run(call.input, ctx));
  };
  assert.equal(await read(), "1\tx = 1");
  assert.equal(
    await read(),
    "Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.",
  );
});
