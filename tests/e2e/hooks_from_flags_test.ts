/**
 * Hooks given on the command line (`-c 'hooks.EVENT=[...]'`) and in the selected profile
 * (`[profiles.NAME.hooks]`) run in `interpreter exec`, besides the config file's own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";

/** A TOML inline array of one SessionStart group whose command appends `name` to `log`. */
const group = (log: string, name: string) =>
  `[{hooks=[{type="command",command=${JSON.stringify(`echo ${name} >> '${log}'`)}}]}]`;

Deno.test("exec runs SessionStart hooks from -c and from the selected profile", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const log = join(repo, "..", `hooks-${crypto.randomUUID()}.log`);
  await using model = startFakeProvider([{ reply: { text: "one" } }, { reply: { text: "two" } }]);
  const home = await dirs.add(fakeHome(
    model.baseUrl,
    "chat",
    `[profiles.ci]\nhooks.SessionStart = ${group(log, "profile")}\n`,
  ));
  try {
    const flags = ["-c", `hooks.SessionStart=${group(log, "flag")}`, "--skip-git-repo-check"];
    const first = await interpreter(["exec", ...flags, "hi"], { cwd: repo, home });
    assert.equal(first.code, 0, first.stderr);
    assert.equal((await Deno.readTextFile(log)).trim(), "flag");
    // The profile's hook runs once the profile is selected; without it, nothing more ran above.
    const second = await interpreter(["exec", "--profile", "ci", "hi"], { cwd: repo, home });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual((await Deno.readTextFile(log)).trim().split("\n"), ["flag", "profile"]);
    assert.deepEqual(model.failures, []);
  } finally {
    await Deno.remove(log).catch(() => {});
  }
});
