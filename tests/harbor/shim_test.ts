/**
 * Runs the Python tests of the Harbor shim (integrations/harbor/interpreter_harbor.py) so that
 * `scripts/test` covers them: `python3 tests/harbor/test_shim.py` against a stand-in for Harbor.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Whether `python3` runs here (3.10 or later: the shim uses `str | None` annotations). */
function hasPython3(): boolean {
  try {
    const probe = new Deno.Command("python3", {
      args: ["-c", "import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return probe.success;
  } catch {
    return false;
  }
}

const python = hasPython3();

Deno.test({
  name: python
    ? "harbor shim: install, run command line and context pass the Python tests"
    : "harbor shim: Python tests (skipped: python3 3.10+ is not on PATH)",
  ignore: !python,
  async fn() {
    const out = await new Deno.Command("python3", {
      args: ["-B", "tests/harbor/test_shim.py"],
      cwd: REPO,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `python3 tests/harbor/test_shim.py failed:\n${text}`);
    assert.match(text, /^OK/m, text);
  },
});
