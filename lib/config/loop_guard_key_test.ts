import assert from "node:assert/strict";
import { ConfigError, UsageError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { formatConfigDebug } from "./debug.ts";
import { loadConfig } from "./load.ts";

Deno.test("loadConfig() reads [loop_guard] from a file and from -c, and debug config lists it", async () => {
  await using t = await tempTree({
    "home/config.toml": "loop_guard_repeats = 4\n[loop_guard]\ncycle_repeats = 0\n" +
      "repeated_span_min_chars = 40\n",
  });
  const base = { cwd: t.repo, env: t.env, flags: {} };
  const config = await loadConfig({ ...base, overrides: ["loop_guard.no_progress_steps=5"] });
  assert.deepEqual(config.values.loop_guard, {
    cycle_repeats: 0,
    repeated_span_min_chars: 40,
    no_progress_steps: 5,
  });
  assert.equal(config.values.loop_guard_repeats, 4);
  const text = formatConfigDebug(config);
  assert.match(text, /^loop_guard\.cycle_repeats = 0 +# .*config\.toml/m);
  assert.match(text, /^loop_guard\.no_progress_steps = 5 +# -c override$/m);
});

Deno.test("loadConfig() refuses a loop_guard threshold of 1 where 2 is the least, naming 0", async () => {
  await using t = await tempTree({ "home/config.toml": "[loop_guard]\ncycle_repeats = 1\n" });
  const err = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] })
    .catch((e) => e);
  assert.ok(err instanceof ConfigError, String(err));
  assert.match(
    err.message,
    /^Invalid value 1 for "loop_guard\.cycle_repeats" in .* at line 2: use 0 to turn this check off, or a number of cycles of 2 or more$/,
  );
  await using clean = await tempTree();
  const flag = await loadConfig({
    cwd: clean.repo,
    env: clean.env,
    flags: {},
    overrides: ["loop_guard.repeated_span_min_chars=0"],
  }).catch((e) => e);
  assert.ok(flag instanceof UsageError, String(flag));
  assert.match(flag.message, /"loop_guard\.repeated_span_min_chars".*expected at least 1/);
});

Deno.test("loadConfig() warns about an unknown key in [loop_guard] with the nearest one", async () => {
  await using t = await tempTree({ "home/config.toml": "[loop_guard]\ncycle_repeat = 4\n" });
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.match(
    config.warnings.join("\n"),
    /Unknown key "loop_guard\.cycle_repeat" .*did you mean "loop_guard\.cycle_repeats"\?/,
  );
});
