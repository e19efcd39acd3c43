/**
 * `fs.str_replace_editor` under the sandboxed file helper (bwrap) in workspace-write: every write
 * it makes goes through the session's file system, so escapes and protected paths are refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import { strReplaceEditor, type StrReplaceEditorInput } from "./str_replace_editor.ts";
import { BWRAP, bwrapTest, type SandboxLayout, sandboxLayout } from "./_test_sandbox.ts";
import { startFsHelper } from "../../sandbox/fs_helper_client.ts";

function edit(input: StrReplaceEditorInput, ctx: ToolContext) {
  return strReplaceEditor.run(strReplaceEditor.input.parse(input), ctx);
}

async function refused(p: Promise<unknown>, why: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ToolError, `expected a ToolError, got ${err}`);
    assert.match(err.message, why);
    return true;
  });
}

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    out.push(e.name);
    if (e.isDirectory) out.push(...(await tree(join(dir, e.name))).map((n) => `${e.name}/${n}`));
  }
  return out.sort();
}

async function untouched(l: SandboxLayout): Promise<void> {
  assert.deepEqual(await tree(l.outside), ["victim.txt"]);
  assert.equal(await Deno.readTextFile(join(l.outside, "victim.txt")), "orig\n");
  assert.deepEqual(await tree(join(l.ws, ".git")), ["config", "hooks"]);
  assert.equal(await Deno.readTextFile(join(l.ws, ".git", "config")), "[core]\n");
}

bwrapTest("strReplaceEditor cannot write outside the workspace or into .git", async () => {
  await using l = await sandboxLayout();
  await using fs = await startFsHelper({ policy: l.policy, bwrap: BWRAP });
  const ctx = l.ctx(fs);
  const escaped = join(l.outside, "escaped.txt");
  await refused(
    edit({ command: "create", path: escaped, file_text: "x\n" }, ctx),
    /refused by the sandbox: it is outside the writable roots/,
  );
  await refused(
    edit(
      { command: "str_replace", path: "../outside/victim.txt", old_str: "orig", new_str: "x" },
      ctx,
    ),
    /refused by the sandbox: it is outside the writable roots/,
  );
  await refused(
    edit({ command: "create", path: ".git/hooks/pre-commit", file_text: "#!/bin/sh\n" }, ctx),
    /refused by the sandbox: it is a protected path/,
  );
  await refused(
    edit({ command: "insert", path: ".git/config", insert_line: 1, new_str: "fsmonitor=x" }, ctx),
    /refused by the sandbox: it is a protected path/,
  );
  await untouched(l);
  const inside = await edit({ command: "create", path: "ok.txt", file_text: "fine\n" }, ctx);
  assert.equal(await Deno.readTextFile(inside.path), "fine\n", "writes inside still work");
});

bwrapTest("strReplaceEditor undo_edit does not follow a folder swapped for a symlink", async () => {
  await using l = await sandboxLayout();
  await using fs = await startFsHelper({ policy: l.policy, bwrap: BWRAP });
  const ctx = l.ctx(fs);
  await Deno.mkdir(join(l.ws, "dir"));
  await Deno.writeTextFile(join(l.ws, "dir", "victim.txt"), "v1\n");
  await edit({ command: "str_replace", path: "dir/victim.txt", old_str: "v1", new_str: "v2" }, ctx);
  await edit({ command: "create", path: "dir/new.txt", file_text: "new\n" }, ctx);
  await Deno.rename(join(l.ws, "dir"), join(l.ws, "dir.moved"));
  await Deno.writeTextFile(join(l.outside, "new.txt"), "keep\n");
  await Deno.symlink(l.outside, join(l.ws, "dir"));
  await refused(edit({ command: "undo_edit", path: "dir/new.txt" }, ctx), /./);
  await refused(edit({ command: "undo_edit", path: "dir/victim.txt" }, ctx), /./);
  assert.equal(await Deno.readTextFile(join(l.outside, "new.txt")), "keep\n");
  assert.equal(await Deno.readTextFile(join(l.outside, "victim.txt")), "orig\n");
  assert.deepEqual(await tree(l.outside), ["new.txt", "victim.txt"]);
});
