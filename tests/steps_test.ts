/**
 * The e2e tests' steps (tests/e2e/_steps.ts) go on after a failure, so one failure hides none
 * of the rest, and a failure says what the process under test printed. Run for real in a
 * subprocess, since the test it runs must fail.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const STEPS = new URL("./e2e/_steps.ts", import.meta.url).href;

Deno.test("a failing step fails the test, names the process's stderr, and the next step runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "steps-" });
  try {
    const file = join(dir, "two_steps_test.ts");
    await Deno.writeTextFile(
      file,
      `import { stepper } from ${JSON.stringify(STEPS)};
Deno.test("outer", async (t) => {
  const step = stepper(t, "agent stderr", () => "the agent said this");
  await step("first fails", () => { throw new Error("planted failure"); });
  await step("second runs", () => console.log("SECOND RAN"));
});
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-check", "-A", "--no-lock", file],
      cwd: dir,
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.success, false, text);
    assert.match(text, /first fails \.\.\. FAILED/);
    assert.match(text, /SECOND RAN/);
    assert.match(text, /second runs \.\.\. ok/);
    assert.match(text, /planted failure\n--- agent stderr ---\nthe agent said this/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
