import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { interpreter } from "./_harness_env.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const SMALLEST = join("tests", "fixtures", "harnesses", "smallest");

/** `interpreter debug harness ARG` run in `cwd` with a fresh home. */
async function debugHarness(arg: string, cwd = REPO) {
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  try {
    return await interpreter(["debug", "harness", arg], { cwd, home });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** A copy of the smallest harness in a temp folder, its harness.toml changed by `edit`. */
async function withCopy(edit: (spec: string) => string, run: (dir: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "oi-harness-" });
  try {
    const dir = join(root, "smallest");
    for (const file of ["harness.toml", "prompts/system.md", "tools/run.json"]) {
      await Deno.mkdir(join(dir, file, ".."), { recursive: true });
      await Deno.copyFile(join(REPO, SMALLEST, file), join(dir, file));
    }
    const spec = join(dir, "harness.toml");
    await Deno.writeTextFile(spec, edit(await Deno.readTextFile(spec)));
    await run(dir);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("debug harness PATH renders a harness folder that is not installed", async () => {
  const result = await debugHarness(SMALLEST);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^harness smallest \(Smallest \(one shell tool\)\)$/m);
  assert.match(result.stdout, new RegExp(`^folder: ${join(REPO, SMALLEST)}$`, "m"));
  assert.match(result.stdout, /^ {2}run → shell\.run$/m);
  assert.match(result.stdout, /^ {6}\| Exit code: 1$/m);
  assert.match(result.stdout, /^ {2}compaction = \(shared\) _shared\/compaction\.md$/m);
  assert.match(result.stdout, /^ {2}sandbox = \(shared\) _shared\/sandbox\.toml$/m);
});

Deno.test("debug harness PATH shows a folder's own prompts, and a bare folder name here works", async () => {
  await withCopy(
    (spec) => `${spec}\n[prompts]\ncompaction = "prompts/compact.md"\n`,
    async (dir) => {
      await Deno.writeTextFile(join(dir, "prompts", "compact.md"), "Write hand-off notes.\n");
      const result = await debugHarness("smallest", join(dir, ".."));
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`^folder: ${dir}$`, "m"));
      assert.match(result.stdout, /^ {2}compaction = prompts\/compact\.md$/m);
      assert.match(result.stdout, /^ {2}reviewer = \(shared\) _shared\/reviewer\.md$/m);
    },
  );
});

Deno.test("debug harness PATH reports a broken harness as a session would", async () => {
  await withCopy((spec) => spec.replace("label =", 'lable = "typo"\nlabel ='), async (dir) => {
    const result = await debugHarness(dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^error: Invalid harness spec ".*smallest\/harness\.toml": unknown key "lable"/m,
    );
    assert.match(result.stderr, /^hint: Remove the key or fix its spelling/m);
  });
  await withCopy((spec) => spec.replace('"command" }', '"cmd" }'), async (dir) => {
    const result = await debugHarness(dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /key "tools\[0\]\.args\.command": "cmd" is not an input field/);
  });
});

Deno.test("debug harness PATH names a path that is no harness folder", async () => {
  const missing = await debugHarness("./no/such/folder");
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /^error: Cannot load the harness folder "\.\/no\/such\/folder": it is not a folder/m,
  );
  const bare = await debugHarness("tests/fixtures");
  assert.equal(bare.code, 2);
  assert.match(
    bare.stderr,
    /^error: Cannot load the harness folder "tests\/fixtures": it has no harness\.toml/m,
  );
  assert.match(bare.stderr, /^hint: Write harness\.toml there/m);
});
