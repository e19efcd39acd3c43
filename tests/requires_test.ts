/**
 * A test that needs a missing program is skipped locally but fails the run under CI=true,
 * naming the program and how to install it (sandbox/_test_requires.ts). Run for real: the rg
 * tests in a subprocess whose PATH lacks rg.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { needOf } from "../sandbox/_test_requires.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const RG_TESTS = "lib/tools/_rg_test.ts";

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
    assert.match(local.out, /0 passed \| 0 failed \| 3 ignored/);
    assert.match(local.out, /SKIPPED: rg is missing here/);
  } finally {
    await Deno.remove(empty);
  }
});

Deno.test("CI=true with rg on PATH runs every rg test", async () => {
  const run = await runRgTests({ PATH: Deno.env.get("PATH") ?? "", CI: "true" });
  assert.equal(run.ok, true, run.out);
  assert.match(run.out, /ok \| 3 passed \| 0 failed \(/);
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
