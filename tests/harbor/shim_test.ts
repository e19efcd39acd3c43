/**
 * Runs the Python tests of the Harbor shim (integrations/harbor/interpreter_harbor.py) so that
 * `scripts/test` covers them: `python3 tests/harbor/test_shim.py` against a stand-in for Harbor.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { need } from "../../sandbox/_test_requires.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** python3 3.10 or later: the shim uses `str | None` annotations. */
const PYTHON = await need("python3");

Deno.test({
  name: "harbor shim: install, run command line and context pass the Python tests" + PYTHON.note,
  ignore: PYTHON.ignore,
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
