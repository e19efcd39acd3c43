import assert from "node:assert/strict";
import { harnessSession } from "./_harness_calls.ts";

// Each harness's edit and read texts, through the real capabilities on a real file, as its
// vendor words them (../shared/reference/request-shapes.md, the section named per harness);
// where the vendor's text is unknown, ours, naming only the harness's own parameters.

const FILE = "alpha\nbeta\nalpha\n";
type Call = [name: string, args: Record<string, unknown>];

interface Case {
  /** An edit of a.txt replacing `old` with `neu`. */
  edit: (old: string, neu: string) => Call;
  read: Call;
  /** Texts (`{cwd}` is the workspace) of: a Read of a.txt, an edit of an absent string, of a
   * string found twice, and a successful edit of beta into gamma; before Read where required. */
  readText: string;
  notFound: string;
  twice: string;
  edited: string;
  beforeRead?: string;
}

/** Claude Code's Edit texts (§1.5), which the bare profile shares (§1.6). */
const CLAUDE: Case = {
  edit: (old, neu) => ["Edit", { file_path: "a.txt", old_string: old, new_string: neu }],
  read: ["Read", { file_path: "a.txt" }],
  readText: "1\talpha\n2\tbeta\n3\talpha",
  beforeRead:
    "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
  notFound: "<tool_use_error>String to replace not found in file.\nString: nope</tool_use_error>",
  twice: "<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. " +
    "To replace all occurrences, set replace_all to true. To replace only one occurrence, " +
    "please provide more context to uniquely identify the instance.\nString: alpha</tool_use_error>",
  edited: "The file {cwd}/a.txt has been updated successfully.",
};

/** Claude Code's Edit answer with the bare profile's note (§1.6), as zcode sends it too (§2). */
const EDITED_CURRENT = "The file {cwd}/a.txt has been updated successfully. (file state is " +
  "current in your context — no need to Read it back)";

const CASES: Record<string, Case> = {
  "claude-code": CLAUDE,
  "claude-code-bare": { ...CLAUDE, edited: EDITED_CURRENT },
  // §2; zcode's own absent/repeated-string texts are unknown: ours.
  zcode: {
    ...CLAUDE,
    notFound: 'Cannot edit "a.txt": old_string not found in the file\nCopy the text exactly from ' +
      "the file, whitespace and indentation included, or read it again",
    twice: 'Cannot edit "a.txt": old_string occurs 2 times; it must occur exactly once\n' +
      "Add surrounding lines to make it unique, or set replace_all to replace every occurrence",
    edited: EDITED_CURRENT,
  },
  // §6
  pi: {
    edit: (old, neu) => ["edit", { path: "a.txt", edits: [{ oldText: old, newText: neu }] }],
    read: ["read", { path: "a.txt" }],
    readText: "alpha\nbeta\nalpha",
    notFound: "Could not find the exact text in a.txt. The old text must match exactly including " +
      "all whitespace and newlines.",
    twice: "Found 2 occurrences of the text in a.txt. The text must be unique. Please provide " +
      "more context to make it unique.",
    edited: "Successfully replaced 1 block(s) in a.txt.",
  },
  // §5; the "Error: " prefix is ours (opencode's is unknown).
  opencode: {
    edit: (old, neu) => ["edit", { filePath: "a.txt", oldString: old, newString: neu }],
    read: ["read", { filePath: "a.txt" }],
    readText: "<path>{cwd}/a.txt</path>\n<type>file</type>\n<content>\n1: alpha\n2: beta\n" +
      "3: alpha\n\n(End of file - total 3 lines)\n</content>",
    notFound: "Error: oldString not found in content",
    twice: "Error: Found multiple matches for oldString. Provide more surrounding lines in " +
      "oldString to identify the correct match.",
    edited: "Edit applied successfully.",
  },
  // §9; a repeated search is ours (DeepSeek TUI edits the first), naming search, no replace_all.
  "deepseek-tui": {
    edit: (old, neu) => ["edit_file", { path: "a.txt", search: old, replace: neu }],
    read: ["read_file", { path: "a.txt" }],
    readText: "alpha\nbeta\nalpha",
    notFound: "edit_file failed: search not found",
    twice: '<system>ERROR: Cannot edit "a.txt": search occurs 2 times; it must occur exactly ' +
      "once</system>\nAdd surrounding lines to make it unique",
    edited: "--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+gamma\n alpha\n\n" +
      "Replaced 1 occurrence in {cwd}/a.txt",
  },
  // §8; several matches are ours (Kimi CLI replaces the first), naming edit.old and replace_all.
  "kimi-cli": {
    edit: (old, neu) => ["StrReplaceFile", { path: "a.txt", edit: { old, new: neu } }],
    read: ["ReadFile", { path: "a.txt" }],
    readText: "<system>3 lines read from file starting from line 1. Total lines in file: 3. End " +
      "of file reached.</system>\n     1\talpha\n     2\tbeta\n     3\talpha",
    notFound: "<system>ERROR: No replacements were made. The old string was not found in the " +
      "file.</system>",
    twice: '<system>ERROR: Cannot edit "a.txt": old occurs 2 times; it must occur exactly ' +
      "once</system>\nAdd surrounding lines to make it unique, or set replace_all to replace " +
      "every occurrence",
    edited:
      "<system>File successfully edited. Applied 1 edit(s) with 1 total replacement(s).</system>",
  },
  // §7; Kimi Code's edit texts are unknown: ours.
  "kimi-code": {
    edit: (old, neu) => ["Edit", { path: "a.txt", old_string: old, new_string: neu }],
    read: ["Read", { path: "a.txt" }],
    readText: "1\talpha\n2\tbeta\n3\talpha\n<system>3 line(s) read from file starting from line " +
      "1. Total lines in file: 3. End of file reached.</system>",
    // Kimi Code keeps the hint inside the <system>ERROR block.
    notFound: '<system>ERROR: Cannot edit "a.txt": old_string not found in the file\n' +
      "Copy the text exactly from the file, whitespace and indentation included, or read it " +
      "again</system>",
    twice: '<system>ERROR: Cannot edit "a.txt": old_string occurs 2 times; it must occur exactly ' +
      "once\nAdd surrounding lines to make it unique, or set replace_all to replace " +
      "every occurrence</system>",
    edited: "Replaced 1 occurrence(s) in a.txt",
  },
  // §4 (reference A.2); Qwen Code's edit errors are unknown: ours.
  "qwen-code": {
    edit: (old, neu) => ["edit", { file_path: "a.txt", old_string: old, new_string: neu }],
    read: ["read_file", { file_path: "a.txt" }],
    readText: "alpha\nbeta\nalpha",
    notFound: 'Error: Cannot edit "a.txt": old_string not found in the file\nCopy the text ' +
      "exactly from the file, whitespace and indentation included, or read it again",
    twice: 'Error: Cannot edit "a.txt": old_string occurs 2 times; it must occur exactly once\n' +
      "Add surrounding lines to make it unique, or set replace_all to replace every occurrence",
    edited: "The file: {cwd}/a.txt has been updated. Showing lines 1-3 of 3 from the edited " +
      "file:\n\n---\n\nalpha\ngamma\nalpha\n",
  },
};

for (const [id, want] of Object.entries(CASES)) {
  Deno.test(`${id}: Read and Edit texts through the real capabilities`, async () => {
    await using s = await harnessSession(id, { "a.txt": FILE });
    if (want.beforeRead) {
      assert.deepEqual(await s.call(...want.edit("beta", "gamma")), {
        text: want.beforeRead,
        isError: true,
      });
    }
    assert.deepEqual(await s.call(...want.read), { text: want.readText, isError: false });
    assert.deepEqual(await s.call(...want.edit("nope", "x")), {
      text: want.notFound,
      isError: true,
    });
    assert.deepEqual(await s.call(...want.edit("alpha", "x")), { text: want.twice, isError: true });
    assert.equal(await s.ws.read("a.txt"), FILE, "a failed edit changes nothing");
    assert.deepEqual(await s.call(...want.edit("beta", "gamma")), {
      text: want.edited,
      isError: false,
    });
    assert.equal(await s.ws.read("a.txt"), "alpha\ngamma\nalpha\n");
  });
}

Deno.test("pi names edits[i] and oldText: several edits, an empty one, paging and the end", async () => {
  await using s = await harnessSession("pi", { "a.txt": FILE });
  const edits = (...pairs: [string, string][]) =>
    s.call("edit", {
      path: "a.txt",
      edits: pairs.map(([oldText, newText]) => ({ oldText, newText })),
    });
  assert.equal(
    (await edits(["beta", "b"], ["nope", "x"])).text,
    "Could not find edits[1] in a.txt. The oldText must match exactly including all whitespace " +
      "and newlines.",
  );
  assert.equal(
    (await edits(["beta", "b"], ["alpha", "x"])).text,
    "Found 2 occurrences of edits[1] in a.txt. Each oldText must be unique. Please provide more " +
      "context to make it unique.",
  );
  const empty = (await edits(["", "x"])).text;
  assert.match(empty, /^Cannot edit "a\.txt": oldText is empty\n/);
  assert.doesNotMatch(empty, /old_string|replace_all/);
  assert.match((await edits(["beta", "b"], ["", "x"])).text, /edits\[1\]\.oldText is empty/);
  assert.deepEqual(await s.call("read", { path: "a.txt", limit: 1 }), {
    text: "alpha\n\n[2 more lines in file. Use offset=2 to continue.]",
    isError: false,
  });
  assert.equal((await s.call("read", { path: "a.txt", offset: 3 })).text, "alpha");
  assert.deepEqual(await s.call("read", { path: "a.txt", offset: 9 }), {
    text: "Offset 9 is beyond end of file (3 lines total)",
    isError: true,
  });
});

Deno.test("pi shows the range of a read cut by its default limit", async () => {
  const lines = Array.from({ length: 2003 }, (_, i) => `l${i + 1}`).join("\n");
  await using s = await harnessSession("pi", { "big.txt": `${lines}\n` });
  const text = (await s.call("read", { path: "big.txt" })).text;
  assert.ok(text.endsWith("l2000\n\n[Showing lines 1-2000 of 2003. Use offset=2001 to continue.]"));
});

Deno.test("opencode and deepseek-tui name their own parameters in our texts", async () => {
  await using oc = await harnessSession("opencode", { "a.txt": FILE });
  const same = (await oc.call("edit", { filePath: "a.txt", oldString: "beta", newString: "beta" }))
    .text;
  assert.match(same, /^Error: Cannot edit "a\.txt": oldString and newString are identical/);
  const empty = (await oc.call("edit", { filePath: "a.txt", oldString: "", newString: "x" })).text;
  assert.match(empty, /oldString is empty/);
  await using ds = await harnessSession("deepseek-tui", { "a.txt": FILE });
  const twice = (await ds.call("edit_file", { path: "a.txt", search: "alpha", replace: "x" })).text;
  assert.match(twice, /search occurs 2 times/);
  assert.doesNotMatch(twice, /old_string|replace_all/);
});

Deno.test("zcode reads from 0 after offset 0 and words a missing file its way", async () => {
  await using s = await harnessSession("zcode", { "a.txt": FILE });
  assert.equal(
    (await s.call("Read", { file_path: "a.txt", offset: 0 })).text,
    "0\talpha\n1\tbeta\n2\talpha",
  );
  assert.deepEqual(await s.call("Read", { file_path: "nope.txt" }), {
    text: "File does not exist. Note: your current working directory is {cwd}.",
    isError: true,
  });
  assert.equal(
    (await s.call("Write", { file_path: "b.txt", content: "x" })).text,
    "File created successfully at: {cwd}/b.txt (file state is current in your context — no need " +
      "to Read it back)",
  );
});

Deno.test("kimi-cli words a missing file and a write its way", async () => {
  await using s = await harnessSession("kimi-cli", { "a.txt": FILE });
  assert.deepEqual(await s.call("ReadFile", { path: "nope.txt" }), {
    text: "<system>ERROR: `nope.txt` does not exist.</system>",
    isError: true,
  });
  assert.equal(
    (await s.call("WriteFile", { path: "a.txt", content: "hello" })).text,
    "<system>File successfully overwritten. Current size: 5 bytes.</system>",
  );
  assert.equal(
    (await s.call("WriteFile", { path: "a.txt", content: "!!", mode: "append" })).text,
    "<system>File successfully appended to. Current size: 7 bytes.</system>",
  );
});

Deno.test("native words a patch that does not apply as Codex's verification failure", async () => {
  await using s = await harnessSession("native", { "a.txt": FILE });
  const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-nope\n+x\n*** End Patch";
  const want = {
    text: "apply_patch verification failed: Failed to find expected lines in a.txt:\nnope",
    isError: true,
  };
  assert.deepEqual(await s.call("apply_patch", { input: patch }), want);
  assert.deepEqual(
    await s.call("exec_command", { cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }),
    want,
  );
});
