import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { fsRead } from "./fs_read.ts";
import { grepFiles } from "./fs_grep.ts";
import { shellOutput, shellStart } from "./shell_background.ts";
import { JobRegistry, JOBS_RESOURCE } from "./shell_jobs.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { need } from "../../sandbox/_test_requires.ts";

// The input fields Gemini CLI's tools need: read_file's end_line, grep_search's case, literal,
// exclusion, per-file and one-sided context options, and read_background_output's pid.

const RG = await need("rg");
const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

Deno.test("fs.read returns start to end_line inclusive, and refuses an end before the start", async () => {
  await using ws = await tempWorkspace({ "a.txt": LINES });
  const out = await fsRead.run({ path: "a.txt", offset: 3, end_line: 5 }, ws.ctx);
  assert.deepEqual(out.lines, ["line 3", "line 4", "line 5"]);
  assert.equal(out.endOfFile, false);
  const head = await fsRead.run({ path: "a.txt", end_line: 2 }, ws.ctx);
  assert.deepEqual(head.lines, ["line 1", "line 2"]);
  await assert.rejects(
    () => fsRead.run({ path: "a.txt", offset: 5, end_line: 4 }, ws.ctx),
    (e) => e instanceof ToolError && /end is before the start/.test(e.message),
  );
});

const TREE = {
  "a/a.py": "Foo = 1\nfoo = 2\nfoo.bar = 3\nx = foo # skip\n",
  "b/b.py": "a\nb\nfoo\nc\nd\n",
};

for (const engine of ["js", "rg"] as const) {
  const skip = engine === "rg" ? RG : { ignore: false, note: "" };
  Deno.test(
    `fs.grep takes case_sensitive, fixed_strings, exclude_pattern, per-file and one-sided context (${engine})${skip.note}`,
    {
      ignore: skip.ignore,
    },
    async () => {
      await using ws = await tempWorkspace(TREE);
      const lines = async (input: Record<string, unknown>) =>
        (await grepFiles({ pattern: "foo", output_mode: "content", ...input }, ws.ctx, engine))
          .lines.map((l) => `${l.path}:${l.line}${l.match ? ":" : "-"}${l.text}`);
      // Gemini CLI ignores case unless case_sensitive is true; case_sensitive wins.
      assert.equal((await lines({ case_insensitive: true, case_sensitive: false })).length, 5);
      assert.equal((await lines({ case_insensitive: true, case_sensitive: true })).length, 4);
      assert.deepEqual(await lines({ pattern: "foo.bar", fixed_strings: true }), [
        "a/a.py:3:foo.bar = 3",
      ]);
      assert.deepEqual(await lines({ path: "a", exclude_pattern: "skip|bar" }), [
        "a.py:2:foo = 2",
      ]);
      assert.deepEqual(await lines({ max_matches_per_file: 1 }), [
        "a/a.py:2:foo = 2",
        "b/b.py:3:foo",
      ]);
      assert.deepEqual(await lines({ path: "b", before: 2 }), [
        "b.py:1-a",
        "b.py:2-b",
        "b.py:3:foo",
      ]);
      assert.deepEqual(await lines({ path: "b", after: 1, context: 2 }), [
        "b.py:1-a",
        "b.py:2-b",
        "b.py:3:foo",
        "b.py:4-c",
      ]);
      // A file whose only matches are excluded is not listed in files mode either.
      const files = await grepFiles({ pattern: "foo", exclude_pattern: "^foo$" }, ws.ctx, engine);
      assert.deepEqual(files.files, ["a/a.py"]);
    },
  );
}

Deno.test("shell.output finds a background job by its pid, and names the known pids otherwise", async () => {
  await using ws = await tempWorkspace();
  const jobs = new JobRegistry({ scratch: ws.ctx.scratch!, stopGraceMs: 200 });
  ws.ctx.resources.set(JOBS_RESOURCE, jobs);
  try {
    const started = await shellStart.run({ command: "echo ready" }, ws.ctx);
    const out = await shellOutput.run({ pid: started.pid, block: true, timeout_s: 30 }, ws.ctx);
    assert.equal(out.id, started.id);
    assert.equal(out.pid, started.pid);
    assert.equal(out.output.trim(), "ready");
    await assert.rejects(
      () => shellOutput.run({ pid: started.pid + 100000 }, ws.ctx),
      (e) => e instanceof ToolError && e.hint === `Known PIDs: ${started.pid}`,
    );
  } finally {
    await jobs[Symbol.asyncDispose]();
  }
});
