import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, REPO } from "./_harness_env.ts";

/** Copies built-in harness `from` into the home's harness folder as `id`, with `match` as [match]. */
async function userHarness(home: string, from: string, id: string, match: string): Promise<void> {
  const dir = join(home, "harnesses", id);
  await cp(join(REPO, "harnesses", from), dir, { recursive: true });
  const file = join(dir, "harness.toml");
  const spec = (await Deno.readTextFile(file))
    .replace(/^id = ".*"$/m, `id = "${id}"`)
    .replace(/^\[match\]\n(?:[^[\n].*\n)*/m, `[match]\n${match}\n`);
  await Deno.writeTextFile(file, spec);
}

Deno.test("interpreter exec chooses a user harness whose [match] claims the model", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider([
    { expect: { tools_include: ["Bash", "Read", "Edit"] }, reply: { text: "mine ok" } },
  ]);
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    await userHarness(home, "claude-code-bare", "my-bare", `models = ["fake-*"]\npriority = 5`);
    const result = await interpreter(["exec", "hi"], { cwd: repo, home });
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^harness: my-bare$/m);
    assert.equal(result.stdout, "mine ok\n");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec keeps the built-in harness over a lower-priority user claim", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider([{ reply: { text: "bare ok" } }]);
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    await userHarness(home, "minimal", "my-min", `models = ["deepseek-*"]\npriority = 9`);
    const result = await interpreter(["exec", "-m", "deepseek-chat", "hi"], { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^harness: claude-code-bare$/m);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});
