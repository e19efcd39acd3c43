/**
 * The vendor captures live in the repository (tests/fixtures/captures), so a clone with nothing
 * beside it runs every capture comparison: none is skipped for a folder outside the repository.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { CAPTURE_TABLE } from "./_capture_compare.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
/** What the captures test needs from the repository; nothing from beside it. */
const PARTS = ["deno.json", "deno.lock", "lib", "sandbox", "harnesses", "tests"];

/** Counts from the uncoloured summary of `deno test` (`ok | 7 passed | 0 failed | 2 ignored`). */
function summary(out: string): { passed: number; failed: number; ignored: number } {
  // deno leaves out "N ignored" when none was.
  const count = (what: string) => Number(out.match(new RegExp(`(\\d+) ${what}`))?.[1] ?? 0);
  return { passed: count("passed"), failed: count("failed"), ignored: count("ignored") };
}

Deno.test("the captures test run from a copy with nothing beside it runs every case", async () => {
  const outer = await Deno.makeTempDir({ prefix: "bare-clone-" });
  try {
    const clone = join(outer, "repo");
    await Deno.mkdir(clone);
    for (const part of PARTS) {
      const { success } = await new Deno.Command("cp", { args: ["-R", join(REPO, part), clone] })
        .output();
      assert.ok(success, `cp ${part}`);
    }
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--frozen", "--no-check", "-A", "tests/harness_captures_test.ts"],
      cwd: clone,
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text);
    const counts = summary(text);
    // Every capture comparison plus the two tests of the comparison helpers, none ignored.
    assert.deepEqual(counts, { passed: CAPTURE_TABLE.length + 2, failed: 0, ignored: 0 }, text);
  } finally {
    await Deno.remove(outer, { recursive: true });
  }
});

/** Code (not comments) naming the shared folder beside the repository. */
const OUTSIDE = [/["'`][^"'`\n]*\.\.\/shared\//, /["'`]\.\.["'`],\s*["'`]shared["'`]/];

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && entry.name !== "node_modules") yield* tsFiles(path);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}

Deno.test("no test or script reads the shared folder beside the repository", async () => {
  const readers: string[] = [];
  for (const dir of ["lib", "sandbox", "tests", "scripts"]) {
    for await (const file of tsFiles(join(REPO, dir))) {
      const code = (await Deno.readTextFile(file)).split("\n")
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
      if (code.some((line) => OUTSIDE.some((re) => re.test(line)))) {
        readers.push(relative(REPO, file));
      }
    }
  }
  assert.deepEqual(readers, []);
});

Deno.test("the shared-folder check finds a planted reader and passes a comment", () => {
  // Spelled in parts, so that this file itself names no folder outside the repository.
  const [dots, name] = [".".repeat(2), "shared"];
  const up = `${dots}/${name}`;
  const planted = `const CAPTURES = new URL("../${up}/reference/captures/", import.meta.url);`;
  const joined = `const CAPTURES = join(REPO, "${dots}", "${name}", "reference");`;
  const comment = `// as ${up}/reference/request-shapes.md says`;
  assert.ok(OUTSIDE.some((re) => re.test(planted)));
  assert.ok(OUTSIDE.some((re) => re.test(joined)));
  assert.ok(!OUTSIDE.some((re) => re.test(comment)));
});
