import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const TEST_SCRIPT = fileURLToPath(new URL("./test", import.meta.url));

/** One file: a test that passes, one that fails, and one that waits until it is interrupted. */
const SUITE = `
Deno.test("passes", () => {});
Deno.test("fails", () => { throw new Error("on purpose"); });
Deno.test("waits", () => new Promise((resolve) => setTimeout(resolve, 600_000)));
`;

Deno.test({
  name: "scripts/test interrupted by Ctrl-C says how many tests passed and failed, and exits 130",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "scripts_test_sigint_" });
    try {
      const file = `${dir}/suite_test.ts`;
      await Deno.writeTextFile(file, SUITE);
      // Its own process group, as a terminal's foreground job: Ctrl-C reaches all of it.
      const child = new Deno.Command("setsid", {
        args: [TEST_SCRIPT, "--skip-checks", file],
        env: { TMPDIR: dir, NO_COLOR: "1" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const deadline = setTimeout(() => Deno.kill(-child.pid, "SIGKILL"), 60_000);
      const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      while (!/fails \.\.\. FAILED/.test(seen)) {
        const { value, done } = await stdout.read();
        if (done) break;
        seen += value;
      }
      Deno.kill(-child.pid, "SIGINT");
      while (true) {
        const { value, done } = await stdout.read();
        if (done) break;
        seen += value;
      }
      const status = await child.status;
      clearTimeout(deadline);
      const stderr = await new Response(child.stderr).text();
      assert.equal(status.code, 130, `${seen}${stderr}`);
      assert.match(seen, /^interrupted: 1 passed, 1 failed so far$/m);
      assert.doesNotMatch(seen, /^0 passed, 0 failed$/m);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
