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
