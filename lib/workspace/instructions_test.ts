import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { findInstructions, instructionsText } from "./instructions.ts";

/** A temp folder holding `files` (path → text; a path ending in "/" is a folder). */
async function tree(files: Record<string, string>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_instructions_" }));
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith("/")) {
      await Deno.mkdir(join(dir, path), { recursive: true });
      continue;
    }
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("findInstructions() stops at a configured root marker and honours an empty override", async () => {
  await using t = await tree({
    "home/AGENTS.override.md": "  \n",
    "home/AGENTS.md": "home rules",
    "outer/AGENTS.md": "outside the project",
    "outer/proj/.hg/": "",
    "outer/proj/AGENTS.md": "proj rules",
    "outer/proj/a/b/": "",
  });
  const roots = { cwd: join(t.dir, "outer/proj/a/b"), home: join(t.dir, "home") };
  const found = await findInstructions("AGENTS.md", roots, { rootMarkers: [".hg"] });
  assert.deepEqual(found.files.map((f) => [f.text, f.global]), [
    ["home rules", true],
    ["proj rules", false],
  ]);
  // No marker found, or none configured: the working directory alone.
  const none = await findInstructions("AGENTS.md", roots, { rootMarkers: [] });
  assert.deepEqual(none.files.map((f) => f.text), ["home rules"]);
  const zero = await findInstructions("AGENTS.md", roots, { rootMarkers: [".hg"], maxBytes: 0 });
  assert.deepEqual([zero.files.map((f) => f.text), zero.warnings], [["home rules"], []]);
});

Deno.test("findInstructions() cuts at a character boundary and names the files left out", async () => {
  await using t = await tree({
    "r/.git/": "",
    "r/AGENTS.md": "ééé", // six bytes
    "r/s/AGENTS.md": "later",
  });
  const roots = { cwd: join(t.dir, "r/s"), home: join(t.dir, "home") };
  const found = await findInstructions("AGENTS.md", roots, { maxBytes: 5 });
  const [cut, left] = found.files;
  assert.match(cut.text, /^éé\n\n\[Cut here: .*AGENTS\.md has 6 bytes and only the first 4 fit/);
  assert.match(left.text, /^\[Left out: .*s\/AGENTS\.md is over the limit/);
  assert.equal(found.warnings.length, 1);
  assert.match(
    found.warnings[0],
    /^AGENTS\.md files are over project_doc_max_bytes \(5 bytes\): cut .*r\/AGENTS\.md to 4 of 6 bytes; left out .*s\/AGENTS\.md$/,
  );
});

Deno.test("instructionsText() frames the user's file and the project's as the harness says", () => {
  const files = [
    { path: "/h/AGENTS.md", text: "mine", global: true },
    { path: "/w/AGENTS.md", text: "root", global: false },
    { path: "/w/sub/AGENTS.md", text: "sub", global: false },
  ];
  const framing = {
    fileTemplate: "<{relative_path}>\n{text}",
    globalTemplate: "[{path}] {text}",
    globalSeparator: "\n---\n",
  };
  assert.equal(
    instructionsText(files, { cwd: "/w/sub", framing }),
    "[/h/AGENTS.md] mine\n---\n<../AGENTS.md>\nroot\n\n<AGENTS.md>\nsub",
  );
  assert.equal(instructionsText(files.slice(1), { cwd: "/w" }), "root\n\nsub");
});

/** Makes `path` a link to `target`. */
async function link(target: string, path: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.symlink(target, path);
}

Deno.test({
  name:
    `findInstructions() skips a /dev/zero link or a FIFO under an instruction name, with a warning${
      Deno.build.os === "windows" ? " (SKIPPED: no /dev/zero)" : ""
    }`,
  ignore: Deno.build.os === "windows",
  async fn() {
    await using t = await tree({
      "r/.git/": "",
      "r/AGENTS.md": "root rules",
      "r/s/AGENTS.md": "sub rules",
      "r/s/CLAUDE.md": "claude sub rules",
      "home/": "",
    });
    await link("/dev/zero", join(t.dir, "r/AGENTS.override.md"));
    await link("/dev/zero", join(t.dir, "home/AGENTS.md"));
    await link("/dev/zero", join(t.dir, "r/.claude/CLAUDE.md"));
    const fifo = await new Deno.Command("mkfifo", { args: [join(t.dir, "r/s/AGENTS.override.md")] })
      .output();
    assert.ok(fifo.success, "mkfifo made the FIFO");
    const roots = { cwd: join(t.dir, "r/s"), home: join(t.dir, "home"), userHome: t.dir };
    const started = Date.now();
    const agents = await findInstructions("AGENTS.md", roots);
    const claude = await findInstructions("CLAUDE.md", roots);
    assert.ok(Date.now() - started < 5_000, "read in seconds");
    // Control: the regular files next to them are read.
    assert.deepEqual(agents.files.map((f) => f.text), ["root rules", "sub rules"]);
    assert.deepEqual(claude.files.map((f) => f.text), ["claude sub rules"]);
    const skipped = (path: string, what: string) =>
      `Skipped the instruction file ${join(t.dir, path)}: it is ${what}, not a regular file`;
    assert.deepEqual(agents.warnings, [
      skipped("home/AGENTS.md", "a character device"),
      skipped("r/AGENTS.override.md", "a character device"),
      skipped("r/s/AGENTS.override.md", "a FIFO (named pipe)"),
    ]);
    assert.deepEqual(claude.warnings, [skipped("r/.claude/CLAUDE.md", "a character device")]);
  },
});

Deno.test("findInstructions() skips a repository's instruction file that links outside it", async () => {
  await using t = await tree({
    "secret.txt": "SECRET outside the repository",
    "r/.git/": "",
    "r/docs/agents.md": "linked rules inside",
    "r/s/": "",
    "r/s/t/": "",
    "r/s/t/AGENTS.md": "t rules",
  });
  await link(join(t.dir, "secret.txt"), join(t.dir, "r/AGENTS.md"));
  // Control: a link that stays inside the repository is read (by the path it has there).
  await link("../docs/agents.md", join(t.dir, "r/s/AGENTS.md"));
  // A folder on the way that links outside counts as leaving it too.
  await link(t.dir, join(t.dir, "r/s/t/.claude"));
  await Deno.writeTextFile(join(t.dir, "CLAUDE.md"), "SECRET claude");
  const roots = { cwd: join(t.dir, "r/s/t"), home: join(t.dir, "home") };
  const found = await findInstructions("AGENTS.md", roots);
  assert.deepEqual(found.files.map((f) => [f.path, f.text]), [
    [join(t.dir, "r/s/AGENTS.md"), "linked rules inside"],
    [join(t.dir, "r/s/t/AGENTS.md"), "t rules"],
  ]);
  assert.deepEqual(found.warnings, [
    `Skipped the instruction file ${join(t.dir, "r/AGENTS.md")}: it leads through a link to ` +
    `${join(t.dir, "secret.txt")}, outside the project ${join(t.dir, "r")}`,
  ]);
  const claude = await findInstructions("CLAUDE.md", roots);
  assert.deepEqual(claude.files, []);
  assert.match(
    claude.warnings.join("\n"),
    /r\/s\/t\/\.claude\/CLAUDE\.md: it leads through a link/,
  );
});

Deno.test("findInstructions() passes over a held-back AGENTS.override.md to the next name", async () => {
  await using t = await tree({
    "r/.git/": "",
    "r/AGENTS.override.md": "planted override",
    "r/AGENTS.md": "root rules",
  });
  const held = join(t.dir, "r/AGENTS.override.md");
  const roots = { cwd: join(t.dir, "r"), home: join(t.dir, "home") };
  const heldBack = await findInstructions("AGENTS.md", { ...roots, isHeldBack: (p) => p === held });
  assert.deepEqual([heldBack.files.map((f) => f.text), heldBack.warnings], [["root rules"], []]);
  // Control: not held back, the override wins as usual.
  const usual = await findInstructions("AGENTS.md", roots);
  assert.deepEqual(usual.files.map((f) => f.text), ["planted override"]);
});

Deno.test("findInstructions() reads CLAUDE.local.md after its siblings, and QWEN.md like GEMINI.md", async () => {
  await using t = await tree({
    "user/.qwen/QWEN.md": "user qwen",
    "user/.gemini/GEMINI.md": "user gemini",
    "proj/.git/": "",
    "proj/CLAUDE.local.md": "root local",
    "proj/CLAUDE.md": "root claude",
    "proj/QWEN.md": "root qwen",
    "proj/sub/.claude/CLAUDE.md": "sub dot-claude",
    "proj/sub/CLAUDE.local.md": "sub local",
    "proj/sub/QWEN.md": "held qwen",
    "proj/sub/GEMINI.md": "sub gemini",
  });
  const cwd = join(t.dir, "proj/sub");
  const held = join(cwd, "QWEN.md");
  const roots = {
    cwd,
    home: join(t.dir, "home"),
    userHome: join(t.dir, "user"),
    isHeldBack: (path: string) => path === held,
  };
  const texts = async (kind: "CLAUDE.md" | "QWEN.md" | "GEMINI.md") =>
    (await findInstructions(kind, roots)).files.map((f) => f.text);
  assert.deepEqual(await texts("CLAUDE.md"), [
    "root claude",
    "root local",
    "sub dot-claude",
    "sub local",
  ]);
  assert.deepEqual(
    await texts("QWEN.md"),
    ["user qwen", "root qwen"],
    "a held-back one is skipped",
  );
  assert.deepEqual(await texts("GEMINI.md"), ["user gemini", "sub gemini"]);
});
