import assert from "node:assert/strict";
import { hookToolView, inputFromHook } from "./tool_names.ts";
import { matches } from "./user_hooks.ts";

const CWD = "/repo";

Deno.test("hookToolView() names every shell Bash, and every edit also apply_patch, Write and Edit", () => {
  const shell = hookToolView({
    wireName: "exec_command",
    capability: "shell.run",
    input: { command: "ls", timeout_ms: 5000 },
  }, CWD);
  assert.deepEqual(shell, {
    name: "Bash",
    matchNames: ["Bash"],
    input: { command: "ls", timeout: 5000 },
  });
  const patch = hookToolView({
    wireName: "apply_patch",
    capability: "fs.apply_patch",
    input: { patch: "*** Begin Patch" },
  }, CWD);
  assert.deepEqual(patch, {
    name: "apply_patch",
    matchNames: ["apply_patch", "Write", "Edit"],
    input: { command: "*** Begin Patch" },
  });
  const write = hookToolView({
    wireName: "write_file",
    capability: "fs.write",
    input: { path: "a/b.txt", content: "x" },
  }, CWD);
  assert.equal(write.name, "Write");
  assert.deepEqual(write.matchNames, ["Write", "apply_patch", "Edit"]);
  assert.deepEqual(write.input, { file_path: "/repo/a/b.txt", content: "x" });
  const view = hookToolView({
    wireName: "str_replace_based_edit_tool",
    capability: "fs.str_replace_editor",
    input: { command: "view", path: "/etc/hosts" },
  }, CWD);
  assert.deepEqual([view.name, view.matchNames], ["Read", ["Read"]]);
});

Deno.test("hookToolView() names an MCP tool mcp__server__tool, and an unmapped tool by its wire name", () => {
  const mcp = hookToolView({
    wireName: "mcp__gh__x",
    capability: "source:github/create_issue",
    input: { title: "t" },
  }, CWD);
  assert.deepEqual(mcp, {
    name: "mcp__github__create_issue",
    matchNames: ["mcp__github__create_issue"],
    input: { title: "t" },
  });
  assert.equal(
    hookToolView({ wireName: "update_plan", capability: "plan.update" }, CWD).name,
    "update_plan",
  );
});

Deno.test("inputFromHook() names a hook's fields back and keeps what it left out", () => {
  assert.deepEqual(
    inputFromHook("shell.run", { command: "ls -a", timeout: 9 }, { command: "ls", cwd: "sub" }),
    { command: "ls -a", timeout_ms: 9, cwd: "sub" },
  );
  assert.deepEqual(inputFromHook("fs.apply_patch", { command: "P2" }, { patch: "P1" }), {
    patch: "P2",
  });
  assert.deepEqual(
    inputFromHook("shell.start", { command: "x", run_in_background: true }, { command: "y" }),
    { command: "x" },
  );
});

Deno.test("matches() takes plain names whole, anything else as a regular expression", () => {
  assert.equal(matches(undefined, ["Bash"]), true);
  assert.equal(matches("", ["Bash"]), true);
  assert.equal(matches("*", ["Bash"]), true);
  assert.equal(matches("Bash", ["Bash"]), true);
  assert.equal(matches("Bash", ["BashOutput"]), false);
  assert.equal(matches("Edit|Write", ["apply_patch", "Write", "Edit"]), true);
  assert.equal(matches("mcp__memory", ["mcp__memory__create"]), false);
  assert.equal(matches("^mcp__memory__.*", ["mcp__memory__create"]), true);
  assert.equal(matches("^Bash$", ["BashOutput"]), false);
});
