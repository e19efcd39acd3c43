import assert from "node:assert/strict";
import { interpreter } from "./_harness_env.ts";

async function debugHarness(id: string) {
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  try {
    return await interpreter(["debug", "harness", id], { cwd: Deno.cwd(), home });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("interpreter debug harness claude-code prints its tools and sample renders", async () => {
  const result = await debugHarness("claude-code");
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^harness claude-code \(Claude Code\)$/m);
  assert.match(result.stdout, /^wire APIs: messages/m);
  assert.match(result.stdout, /^ {2}reasoning_replay = all$/m);
  assert.match(result.stdout, /^ {2}Bash → shell\.run$/m);
  assert.match(result.stdout, /command → command/);
  // The sample shell.run output exits 1 and says "1 failing": its render is shown.
  assert.match(result.stdout, /^ {6}\| 1 failing$/m);
  assert.match(result.stdout, /route when run_in_background: Bash → shell\.start/);
});

Deno.test("interpreter debug harness with an unknown id exits 2 and lists the known ids", async () => {
  const result = await debugHarness("no-such-harness");
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^error: Unknown harness "no-such-harness"/m);
  assert.match(result.stderr, /^hint: Known harnesses: .*claude-code.*native/m);
});
