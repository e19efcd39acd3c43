import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ToolError } from "../errors.ts";
import { loadHarness } from "./load.ts";
import { renderResult, renderToolError, resolveCall } from "./call.ts";
import type { Harness, HarnessTool } from "./types.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));
const native = await loadHarness("native", { builtinDir: BUILTIN });
/** native without its Codex argument texts: our own wording, which these tests check. */
const ownWords: Harness = { ...native, invalidArguments: undefined };

function toolNamed(h: Harness, name: string): HarnessTool {
  return h.tools.find((t) => t.declaration.name === name)!;
}

function rejects(
  call: { name: string; args: unknown; rawArgs?: string },
  message: RegExp,
): ToolError {
  let caught: unknown;
  try {
    resolveCall(ownWords, call);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ToolError, `expected ToolError, got ${caught}`);
  assert.match(caught.message, message);
  return caught;
}

Deno.test("resolveCall() maps wire arguments onto capability fields", () => {
  const r = resolveCall(native, {
    name: "exec_command",
    args: { cmd: "ls", workdir: "src", yield_time_ms: 5000, tty: true, justification: "why" },
  });
  assert.equal(r.capability.id, "shell.run");
  assert.equal(r.tool.declaration.name, "exec_command");
  assert.deepEqual(r.input, {
    command: "ls",
    cwd: "src",
    yield_ms: 5000,
    tty: true,
    justification: "why",
    session: true,
  });
});

Deno.test("resolveCall() parses rawArgs and treats empty rawArgs as no arguments", () => {
  const r = resolveCall(native, { name: "apply_patch", args: undefined, rawArgs: '{"input":"x"}' });
  assert.deepEqual(r.input, { patch: "x" });
  const s = resolveCall(native, { name: "apply_patch", args: '{"input":"y"}' });
  assert.deepEqual(s.input, { patch: "y" });
  rejects(
    { name: "exec_command", args: undefined, rawArgs: "" },
    /missing required argument "cmd"/,
  );
});

Deno.test("resolveCall() drops null optional arguments", () => {
  const r = resolveCall(native, { name: "exec_command", args: { cmd: "ls", workdir: null } });
  assert.deepEqual(r.input, { command: "ls", session: true });
});

Deno.test("resolveCall() uses the unknown tool template for a missing tool", () => {
  const err = rejects({ name: "Bash", args: {} }, /^unsupported call: Bash$/);
  assert.match(err.hint ?? "", /exec_command, write_stdin, apply_patch, update_plan/);
});

Deno.test("resolveCall() says arguments are not valid JSON and quotes a prefix", () => {
  const raw = '{"cmd": "echo ' + "x".repeat(100);
  const err = rejects(
    { name: "exec_command", args: undefined, rawArgs: raw },
    /^Invalid arguments for "exec_command": the arguments are not valid JSON: "\{\\"cmd\\": \\"echo x+…"$/,
  );
  assert.ok(err.message.length < 160);
});

Deno.test("resolveCall() rejects arguments that are not an object", () => {
  rejects({ name: "exec_command", args: ["ls"] }, /expected a JSON object, got an array/);
  rejects({ name: "exec_command", args: 3 }, /expected a JSON object, got a number/);
});

Deno.test("resolveCall() rejects unexpected arguments when additionalProperties is false", () => {
  const err = rejects(
    { name: "exec_command", args: { cmd: "ls", command: "ls", cwd: "." } },
    /^Invalid arguments for "exec_command": unexpected arguments "command", "cwd"$/,
  );
  assert.match(err.hint ?? "", /Allowed arguments: cmd, justification/);
});

Deno.test("resolveCall() names wire arguments in type errors", () => {
  rejects(
    { name: "exec_command", args: { cmd: "ls", workdir: 5 } },
    /^Invalid arguments for "exec_command": "workdir": expected string, received number$/,
  );
  rejects({ name: "exec_command", args: { cmd: 1 } }, /"cmd": expected string/);
  rejects(
    { name: "update_plan", args: { plan: [{ step: "a", status: "done" }] } },
    /^Invalid arguments for "update_plan": "plan\[0\]\.status": Invalid option/,
  );
});

Deno.test("resolveCall() checks declared type and enum of arguments it ignores", () => {
  rejects(
    { name: "exec_command", args: { cmd: "ls", sandbox_permissions: "root" } },
    /"sandbox_permissions": (Invalid option: )?expected one of "use_default"\|"require_escalated"$/,
  );
  rejects(
    { name: "exec_command", args: { cmd: "ls", tty: "yes" } },
    /"tty": expected boolean, received string$/,
  );
  rejects(
    { name: "exec_command", args: { cmd: "ls", prefix_rule: "git" } },
    /"prefix_rule": expected array/,
  );
  const r = resolveCall(native, {
    name: "exec_command",
    args: { cmd: "ls", tty: false, prefix_rule: ["git"] },
  });
  assert.deepEqual(r.input, { command: "ls", tty: false, session: true });
});

Deno.test("resolveCall() reports missing required arguments by wire name", () => {
  const err = rejects({ name: "apply_patch", args: {} }, /missing required argument "input"$/);
  assert.match(err.hint ?? "", /required: input/);
});

Deno.test("resolveCall() reports a required capability field left empty by its wire name", () => {
  const h: Harness = {
    ...native,
    tools: [{
      ...toolNamed(native, "exec_command"),
      declaration: {
        ...toolNamed(native, "exec_command").declaration,
        parameters: { ...toolNamed(native, "exec_command").declaration.parameters, required: [] },
      },
    }],
  };
  assert.throws(
    () => resolveCall(h, { name: "exec_command", args: { workdir: "." } }),
    (err) => err instanceof ToolError && /missing required argument "cmd"/.test(err.message),
  );
});

Deno.test("resolveCall() applies fixed arguments over wire arguments", () => {
  const exec = toolNamed(native, "exec_command");
  const h: Harness = { ...native, tools: [{ ...exec, fixedArgs: { login: true } }] };
  const r = resolveCall(h, { name: "exec_command", args: { cmd: "ls", login: false } });
  assert.deepEqual(r.input, { command: "ls", login: true });
});

Deno.test("renderResult() renders exec_command like Codex", () => {
  const tool = toolNamed(native, "exec_command");
  const base = {
    command: "x",
    cwd: ".",
    durationMs: 1234.5,
    timeoutMs: 120000,
    truncated: false,
    sessionId: null,
  };
  assert.equal(
    renderResult(tool, { ...base, exitCode: 2, output: "boom\n", timedOut: false })
      .replace(/^Chunk ID: [0-9a-f]{6}\n/, "Chunk ID: C\n"),
    "Chunk ID: C\nWall time: 1.2345 seconds\nProcess exited with code 2\n" +
      "Original token count: 2\nOutput:\nboom\n",
  );
  assert.equal(
    renderResult(tool, { ...base, exitCode: null, output: "", timedOut: true, timeoutMs: 5000 })
      .replace(/^Chunk ID: [0-9a-f]{6}\n/, "Chunk ID: C\n"),
    "Chunk ID: C\nWall time: 1.2345 seconds\nProcess timed out after 5 seconds and was killed\n" +
      "Original token count: 0\nOutput:\n",
  );
  const running = { ...base, exitCode: null, output: ">>> ", timedOut: false, sessionId: 1000 };
  assert.equal(
    renderResult(tool, running).replace(/^Chunk ID: [0-9a-f]{6}\n/, "Chunk ID: C\n"),
    "Chunk ID: C\nWall time: 1.2345 seconds\nProcess running with session ID 1000\n" +
      "Original token count: 1\nOutput:\n>>> ",
  );
});

Deno.test("renderResult() lists changed files for apply_patch", () => {
  const out = renderResult(toolNamed(native, "apply_patch"), {
    changes: [
      { path: "a.ts", kind: "add" },
      { path: "b.ts", kind: "update" },
      { path: "c.ts", kind: "delete" },
      { path: "d.ts", kind: "move", movePath: "e.ts" },
    ],
  });
  assert.equal(out, "Success. Updated the following files:\nA a.ts\nM b.ts\nD c.ts\nM e.ts\n");
});

Deno.test("renderResult() renders update_plan as a fixed line", () => {
  assert.equal(renderResult(toolNamed(native, "update_plan"), { plan: [] }), "Plan updated");
});

Deno.test("renderResult() substitutes empty_output, keeps unknown braces, formats values", () => {
  const tool: HarnessTool = {
    ...toolNamed(native, "exec_command"),
    result: {
      template: "{exit_code}|{flag}|{list}|{nope}|{}\n{output}",
      emptyOutput: "(no output)",
    },
  };
  assert.equal(
    renderResult(tool, { exitCode: 0, flag: true, list: [1, 2], output: "" }),
    "0|true|[1,2]|{nope}|{}\n(no output)",
  );
  assert.equal(renderResult({ ...tool, result: { template: "[{output}]" } }, "plain"), "[plain]");
});

Deno.test("renderToolError() fills message and hint, dropping an absent hint line", () => {
  assert.equal(
    renderToolError(native, new ToolError("bad thing", "do this")),
    "bad thing\ndo this",
  );
  assert.equal(renderToolError(native, new ToolError("bad thing")), "bad thing");
});

Deno.test("renderResult() numbers lines from startLine for {numbered_lines}", async () => {
  const bare = await loadHarness("claude-code-bare", { builtinDir: BUILTIN });
  const read = toolNamed(bare, "Read");
  assert.equal(
    renderResult(read, { lines: ["a", "", "c"], startLine: 9, totalLines: 20 }),
    "9\ta\n10\t\n11\tc",
  );
  assert.equal(renderResult(read, { lines: [], startLine: 1 }), "");
  const bash = toolNamed(bare, "Bash");
  assert.equal(renderResult(bash, { output: "" }), "(Bash completed with no output)");
  assert.equal(renderResult(bash, { output: "x\n", exitCode: 1 }), "Exit code 1\nx\n");
  const edit = toolNamed(bare, "Edit");
  assert.match(
    renderResult(edit, { absolutePath: "/w/a.py", replacements: 1 }),
    /^The file \/w\/a\.py has been updated successfully\. /,
  );
  assert.equal(
    renderToolError(bare, new ToolError("File has not been read yet.", "ignored hint")),
    "<tool_use_error>File has not been read yet.</tool_use_error>",
  );
});

Deno.test("resolveCall() maps claude-code-bare Edit and fixes require_read", async () => {
  const bare = await loadHarness("claude-code-bare", { builtinDir: BUILTIN });
  const r = resolveCall(bare, {
    name: "Edit",
    args: { file_path: "a.py", old_string: "x", new_string: "y", replace_all: false },
  });
  assert.equal(r.capability.id, "fs.edit");
  assert.deepEqual(r.input, {
    path: "a.py",
    old_string: "x",
    new_string: "y",
    replace_all: false,
    require_read: true,
  });
  const b = resolveCall(bare, {
    name: "Bash",
    args: { command: "ls", timeout: 5000, description: "list", run_in_background: false },
  });
  assert.deepEqual(b.input, { command: "ls", timeout_ms: 5000, description: "list" });
});

Deno.test("renderResult() offers plain text, a read-on note and an exit note", () => {
  const tool = (template: string) => ({
    declaration: { name: "t", description: "t", parameters: { type: "object" } },
    capability: "x",
    args: {},
    fixedArgs: {},
    scale: {},
    result: { template },
  });
  const read = { lines: ["a", "b"], startLine: 3, totalLines: 10, endOfFile: false };
  assert.equal(
    renderResult(tool("{text}\n\n{more_lines_note}"), read),
    "a\nb\n\n[6 more lines in file. Use offset=5 to continue.]",
  );
  assert.equal(
    renderResult(tool("{text}\n{more_lines_note}"), { ...read, endOfFile: true }),
    "a\nb",
  );
  assert.equal(
    renderResult(tool("{output}\n{exit_note}"), { output: "x", exitCode: 2 }),
    "x\nCommand exited with code 2",
  );
  assert.equal(renderResult(tool("{output}\n{exit_note}"), { output: "x", exitCode: 0 }), "x");
});

Deno.test("renderResult() picks lines with {if_field} and {unless_field}", () => {
  const tool = {
    declaration: { name: "t", description: "t", parameters: { type: "object" } },
    capability: "x",
    args: {},
    fixedArgs: {},
    scale: {},
    result: {
      template: "{colon_numbered_lines}\n(End of file){if_end_of_file}\n" +
        "(More after line {last_line}){unless_end_of_file}",
    },
  };
  const read = { lines: ["a", "b"], startLine: 4, endOfFile: false };
  assert.equal(renderResult(tool, read), "4: a\n5: b\n(More after line 5)");
  assert.equal(renderResult(tool, { ...read, endOfFile: true }), "4: a\n5: b\n(End of file)");
});

Deno.test("resolveCall() scales a numeric wire argument, such as seconds into milliseconds", async () => {
  const pi = await loadHarness("pi", {
    builtinDir: fileURLToPath(new URL("../../harnesses", import.meta.url)),
  });
  const resolved = resolveCall(pi, { name: "bash", args: { command: "true", timeout: 2 } });
  assert.deepEqual(resolved.input, { command: "true", timeout_ms: 2000 });
});

Deno.test("resolveCall() routes a shell apply_patch heredoc to the patcher, and nothing else", async () => {
  const native = await loadHarness("native", {
    builtinDir: fileURLToPath(new URL("../../harnesses", import.meta.url)),
  });
  const heredoc = "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF";
  const routed = resolveCall(native, { name: "exec_command", args: { cmd: heredoc } });
  assert.equal(routed.capability.id, "fs.apply_patch");
  assert.deepEqual(routed.input, { patch: heredoc });
  const plain = resolveCall(native, { name: "exec_command", args: { cmd: "echo apply_patch <<" } });
  assert.equal(plain.capability.id, "shell.run");
});
