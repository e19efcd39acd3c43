/**
 * A test that needs a missing program is skipped locally but fails the run under CI=true,
 * naming the program and how to install it (sandbox/_test_requires.ts). Run for real: the rg
 * tests in a subprocess whose PATH lacks rg.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { needOf } from "../sandbox/_test_requires.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const RG_TESTS = "lib/tools/_rg_test.ts";
/** How many tests the rg test file declares: every one of them needs rg. */
const RG_TEST_COUNT = (await Deno.readTextFile(join(REPO, RG_TESTS))).split("Deno.test(").length -
  1;

/** `deno test` of the rg tests with only `env` (plus what Deno needs to find its cache). */
async function runRgTests(env: Record<string, string>): Promise<{ ok: boolean; out: string }> {
  const keep: Record<string, string> = {};
  for (const name of ["HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) keep[name] = value;
  }
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--frozen", "--no-check", "-A", RG_TESTS],
    cwd: REPO,
    clearEnv: true,
    env: { ...keep, NO_COLOR: "1", ...env },
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { ok: result.success, out: decode(result.stdout) + decode(result.stderr) };
}

Deno.test("CI=true with rg hidden from PATH fails the run, naming rg and how to install it", async () => {
  const empty = await Deno.makeTempDir({ prefix: "no-rg-" });
  try {
    const ci = await runRgTests({ PATH: empty, CI: "true" });
    assert.equal(ci.ok, false, ci.out);
    assert.match(ci.out, /rg is installed \(CI=true fails where a test needs it\) \.\.\. FAILED/);
    assert.match(ci.out, /rg is missing here .*install ripgrep \("apt-get install ripgrep"\)/);

    const local = await runRgTests({ PATH: empty });
    assert.equal(local.ok, true, local.out);
    assert.match(local.out, new RegExp(`0 passed \\| 0 failed \\| ${RG_TEST_COUNT} ignored`));
    assert.match(local.out, /SKIPPED: rg is missing here/);
  } finally {
    await Deno.remove(empty);
  }
});

Deno.test("CI=true with rg on PATH runs every rg test", async () => {
  const run = await runRgTests({ PATH: Deno.env.get("PATH") ?? "", CI: "true" });
  assert.equal(run.ok, true, run.out);
  assert.match(run.out, new RegExp(`ok \\| ${RG_TEST_COUNT} passed \\| 0 failed \\(`));
});

Deno.test("needOf() notes why a program is missing and how to install it", () => {
  assert.deepEqual(needOf("tmux", undefined), {
    tool: "tmux",
    ok: true,
    why: "",
    ignore: false,
    note: "",
  });
  const missing = needOf("pytest", '"python3 -m pytest --version" did not run');
  assert.equal(missing.ignore, true);
  assert.equal(
    missing.note,
    ' (SKIPPED: pytest is missing here ("python3 -m pytest --version" did not run): ' +
      'install pytest ("apt-get install python3-pytest"))',
  );
});

/** Ways a test could look for a program itself instead of through need(). */
const OWN_CHECKS = [
  /Deno\.env\.get\("CI"\)/,
  /new Deno\.Command\("(?:rg|tmux|bwrap|python3|node|wget)", \{\s*args: \["(?:--version|-V)"/,
  /probeBubblewrap\(\)\)?\.ok/,
];
/** The helper itself, and the probe's own tests (they check what the probe says of bwrap). */
const ALLOWED = new Set(["sandbox/_test_requires.ts", "sandbox/probe_test.ts"]);

async function* testSources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && entry.name !== "node_modules") yield* testSources(path);
    else if (entry.isFile && /(_test\.ts|\/_[a-z_]+\.ts)$/.test(path)) yield path;
  }
}

Deno.test("no test looks for a program itself: all go through need()", async () => {
  const own: string[] = [];
  for (const dir of ["lib", "sandbox", "tests", "scripts"]) {
    for await (const file of testSources(join(REPO, dir))) {
      const name = relative(REPO, file);
      if (ALLOWED.has(name) || file === fileURLToPath(import.meta.url)) continue;
      const text = await Deno.readTextFile(file);
      if (OWN_CHECKS.some((re) => re.test(text))) own.push(name);
    }
  }
  assert.deepEqual(own, []);
});

Deno.test("the own-check patterns find a planted check and pass need()", () => {
  const planted = [
    'const ignore = !hasRg && Deno.env.get("CI") !== "true";',
    'const hasRg = await new Deno.Command("rg", { args: ["--version"] }).output();',
    "const bwrap = linux && (await probeBubblewrap()).ok;",
  ];
  for (const line of planted) assert.ok(OWN_CHECKS.some((re) => re.test(line)), line);
  assert.ok(!OWN_CHECKS.some((re) => re.test('const RG = await need("rg");')));
});
