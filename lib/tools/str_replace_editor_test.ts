import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { strReplaceEditor, type StrReplaceEditorInput } from "./str_replace_editor.ts";
import type { ToolContext } from "./capability.ts";
import type { UserQuestion } from "./ask_user.ts";
import { EDIT_HISTORY_KEY } from "./_edit_history.ts";

function edit(input: StrReplaceEditorInput, ctx: ToolContext) {
  return strReplaceEditor.run(strReplaceEditor.input.parse(input), ctx);
}

async function rejects(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (err) => err instanceof ToolError && message.test(err.message));
}

Deno.test("strReplaceEditor view shows a file cat -n style, whole or a range", async () => {
  await using ws = await tempWorkspace({ "a.py": "one\ntwo\nthree\n" });
  const all = await edit({ command: "view", path: "a.py" }, ws.ctx);
  assert.equal(
    all.output,
    `Here's the result of running \`cat -n\` on ${ws.dir}/a.py:\n     1\tone\n     2\ttwo\n     3\tthree\n`,
  );
  const part = await edit({ command: "view", path: "a.py", view_range: [2, -1] }, ws.ctx);
  assert.match(part.output, /:\n {5}2\ttwo\n {5}3\tthree\n$/);
  await rejects(
    edit({ command: "view", path: "a.py", view_range: [2, 9] }, ws.ctx),
    /second element `9` should be smaller than the number of lines in the file: `3`/,
  );
});

Deno.test("strReplaceEditor view lists a directory two levels deep without hidden items", async () => {
  await using ws = await tempWorkspace({
    "src/lib/deep/x.ts": "",
    "src/main.ts": "",
    ".git/config": "",
    "README.md": "",
  });
  const out = await edit({ command: "view", path: "." }, ws.ctx);
  assert.equal(
    out.output,
    `Here's the files and directories up to 2 levels deep in ${ws.dir}, excluding hidden items:\n` +
      [ws.dir, "README.md", "src", "src/lib", "src/main.ts"].map((p, i) => i ? `${ws.dir}/${p}` : p)
        .join("\n") +
      "\n",
  );
});

Deno.test("strReplaceEditor create refuses an existing file and makes parent folders", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x\n" });
  await rejects(
    edit({ command: "create", path: "a.txt", file_text: "y" }, ws.ctx),
    /File already exists at: .*a\.txt\. Cannot overwrite files using command `create`\./,
  );
  const out = await edit({ command: "create", path: "d/b.txt", file_text: "hi\n" }, ws.ctx);
  assert.equal(out.output, `File created successfully at: ${ws.dir}/d/b.txt`);
  assert.equal(await ws.read("d/b.txt"), "hi\n");
  await rejects(edit({ command: "create", path: "c.txt" }, ws.ctx), /`file_text` is required/);
});

Deno.test("strReplaceEditor str_replace needs one exact match and shows a snippet", async () => {
  const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  await using ws = await tempWorkspace({ "f.txt": text + "dup\ndup\n" });
  const out = await edit(
    { command: "str_replace", path: "f.txt", old_str: "line 6\n", new_str: "six\nSIX\n" },
    ws.ctx,
  );
  assert.equal(
    out.output,
    `The file ${ws.dir}/f.txt has been edited. Here's the result of running \`cat -n\` on a snippet of ${ws.dir}/f.txt:\n` +
      "     2\tline 2\n     3\tline 3\n     4\tline 4\n     5\tline 5\n     6\tsix\n     7\tSIX\n" +
      "     8\tline 7\n     9\tline 8\n    10\tline 9\n    11\tline 10\n    12\tline 11\n" +
      "Review the changes and make sure they are as expected. Edit the file again if necessary.",
  );
  assert.match(await ws.read("f.txt"), /line 5\nsix\nSIX\nline 7\n/);
  await rejects(
    edit({ command: "str_replace", path: "f.txt", old_str: "dup", new_str: "x" }, ws.ctx),
    /^No replacement was performed\. Multiple occurrences of old_str `dup` in lines \[14, 15\]\. Please ensure it is unique$/,
  );
  await rejects(
    edit({ command: "str_replace", path: "f.txt", old_str: "nope", new_str: "x" }, ws.ctx),
    /^No replacement was performed, old_str `nope` did not appear verbatim in .*f\.txt\.$/,
  );
  await rejects(
    edit({ command: "str_replace", path: "gone.txt", old_str: "a" }, ws.ctx),
    /The path .*gone\.txt does not exist\. Please provide a valid path\./,
  );
});

Deno.test("strReplaceEditor insert adds text after line N and checks the range", async () => {
  await using ws = await tempWorkspace({ "f.txt": "a\nb\n" });
  const out = await edit(
    { command: "insert", path: "f.txt", insert_line: 1, new_str: "X" },
    ws.ctx,
  );
  assert.equal(await ws.read("f.txt"), "a\nX\nb\n");
  assert.match(out.output, /snippet of the edited file:\n {5}1\ta\n {5}2\tX\n {5}3\tb\nReview/);
  await edit({ command: "insert", path: "f.txt", insert_line: 0, new_str: "top" }, ws.ctx);
  assert.equal(await ws.read("f.txt"), "top\na\nX\nb\n");
  await rejects(
    edit({ command: "insert", path: "f.txt", insert_line: 9, new_str: "z" }, ws.ctx),
    /Invalid `insert_line` parameter: 9\. It should be within the range of lines of the file: \[0, 4\]/,
  );
});

Deno.test("strReplaceEditor undo_edit restores each file's edits in reverse order", async () => {
  await using ws = await tempWorkspace({ "f.txt": "v1\n" });
  await rejects(
    edit({ command: "undo_edit", path: "f.txt" }, ws.ctx),
    /^No edit history found for .*f\.txt\.$/,
  );
  await edit({ command: "str_replace", path: "f.txt", old_str: "v1", new_str: "v2" }, ws.ctx);
  await edit({ command: "str_replace", path: "f.txt", old_str: "v2", new_str: "v3" }, ws.ctx);
  const out = await edit({ command: "undo_edit", path: "f.txt" }, ws.ctx);
  assert.equal(await ws.read("f.txt"), "v2\n");
  assert.match(out.output, /^Last edit to .*f\.txt undone successfully\..*\n {5}1\tv2\n$/);
  await edit({ command: "undo_edit", path: "f.txt" }, ws.ctx);
  assert.equal(await ws.read("f.txt"), "v1\n");
  await edit({ command: "create", path: "new.txt", file_text: "n" }, ws.ctx);
  await edit({ command: "undo_edit", path: "new.txt" }, ws.ctx);
  await assert.rejects(() => ws.read("new.txt"), Deno.errors.NotFound);
});

Deno.test("strReplaceEditor undo_edit refuses when a folder on the path became a symlink", async () => {
  await using ws = await tempWorkspace({ "d/f.txt": "v1\n", "elsewhere/f.txt": "other\n" });
  await edit({ command: "str_replace", path: "d/f.txt", old_str: "v1", new_str: "v2" }, ws.ctx);
  await Deno.rename(join(ws.dir, "d"), join(ws.dir, "d.moved"));
  await Deno.symlink(join(ws.dir, "elsewhere"), join(ws.dir, "d"));
  await rejects(
    edit({ command: "undo_edit", path: "d/f.txt" }, ws.ctx),
    /^Cannot undo the last edit to .*d\/f\.txt: the path now leads to ".*elsewhere\/f\.txt"/,
  );
  assert.equal(await ws.read("elsewhere/f.txt"), "other\n");
  await Deno.remove(join(ws.dir, "d"));
  await Deno.rename(join(ws.dir, "d.moved"), join(ws.dir, "d"));
  await edit({ command: "undo_edit", path: "d/f.txt" }, ws.ctx);
  assert.equal(await ws.read("d/f.txt"), "v1\n", "the edit is still there to undo");
});

Deno.test("strReplaceEditor undo_edit refuses when the file changed since the edit", async () => {
  await using ws = await tempWorkspace({ "f.txt": "v1\n" });
  await edit({ command: "str_replace", path: "f.txt", old_str: "v1", new_str: "v2" }, ws.ctx);
  await edit({ command: "create", path: "new.txt", file_text: "n\n" }, ws.ctx);
  await Deno.writeTextFile(join(ws.dir, "f.txt"), "v2 and the user's work\n");
  await Deno.writeTextFile(join(ws.dir, "new.txt"), "n and more\n");
  for (const path of ["f.txt", "new.txt"]) {
    await rejects(
      edit({ command: "undo_edit", path }, ws.ctx),
      /^Cannot undo the last edit to .*: the file changed since that edit .*; undo was not applied$/,
    );
  }
  assert.equal(await ws.read("f.txt"), "v2 and the user's work\n");
  assert.equal(await ws.read("new.txt"), "n and more\n", "a created file is not deleted either");
  await Deno.writeTextFile(join(ws.dir, "f.txt"), "v2\n");
  await edit({ command: "undo_edit", path: "f.txt" }, ws.ctx);
  assert.equal(await ws.read("f.txt"), "v1\n", "undone once the file holds what the edit wrote");
});

Deno.test("strReplaceEditor undo_edit never trusts an edit saved without a hash", async () => {
  await using ws = await tempWorkspace({ "keep.txt": "mine\n" });
  const real = join(ws.dir, "keep.txt");
  ws.ctx.state.set(EDIT_HISTORY_KEY, { [real]: [{ before: null, real }] });
  await rejects(
    edit({ command: "undo_edit", path: "keep.txt" }, ws.ctx),
    /: the undo history does not record what that edit wrote .*; undo was not applied$/,
  );
  assert.equal(await ws.read("keep.txt"), "mine\n");
});

Deno.test("strReplaceEditor undo_edit asks the user when the file changed, and obeys", async () => {
  await using ws = await tempWorkspace({ "f.txt": "v1\n" });
  const questions: UserQuestion[] = [];
  let pick = "Keep the file";
  ws.ctx.askUser = (asked) => {
    questions.push(...asked);
    return Promise.resolve([{ id: asked[0].id, answers: [pick] }]);
  };
  await edit({ command: "str_replace", path: "f.txt", old_str: "v1", new_str: "v2" }, ws.ctx);
  await Deno.writeTextFile(join(ws.dir, "f.txt"), "changed\n");
  await rejects(
    edit({ command: "undo_edit", path: "f.txt" }, ws.ctx),
    /the file changed since that edit .*, and the user chose to keep the file; undo was not/,
  );
  assert.equal(await ws.read("f.txt"), "changed\n");
  assert.match(questions[0].question, /^Undo the last edit to ".*f\.txt"\? The file changed/);
  assert.deepEqual(questions[0].options.map((o) => o.label), ["Keep the file", "Undo anyway"]);
  pick = "Undo anyway";
  await edit({ command: "undo_edit", path: "f.txt" }, ws.ctx);
  assert.equal(await ws.read("f.txt"), "v1\n");
});
