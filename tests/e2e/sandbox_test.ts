import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");
const skip = BWRAP.note;

function script(lines: unknown[]): string {
  return lines.map((line) => JSON.stringify(line)).join("\n");
}

Deno.test({
  name: `exec under workspace-write blocks a write outside the workspace and goes on${skip}`,
  ignore: BWRAP.ignore,
  async fn() {
    await using dirs = tempDirs();
    const repo = await dirs.add(fixtureRepo("habits"));
    const target = join("/etc", `oi_escape_test_${crypto.randomUUID()}`);
    await using fake = await startFakeProvider(parseScript(script([
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: `echo x > ${target}` } }] } },
      {
        expect: { last_tool_result_contains: "Read-only file system" },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo in > inside.txt" } }] },
      },
      { expect: { last_tool_result_contains: "exited with code 0" }, reply: { text: "done" } },
    ])));
    const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
    const result = await interpreter(["exec", "-s", "workspace-write", "try it"], {
      cwd: repo,
      home,
    });
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "done");
    assert.match(result.stderr, /sandbox: workspace-write: writes only to .*bubblewrap/);
    assert.equal(await Deno.stat(target).then(() => true, () => false), false);
    assert.equal(await Deno.readTextFile(join(repo, "inside.txt")), "in\n");
    assert.equal(fake.remaining(), 0);
  },
});

Deno.test("exec -a untrusted without a terminal denies a command that is not known safe", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider(parseScript(script([
    {
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "ls && rm -rf habits.py" } }] },
    },
    {
      expect: { last_tool_result_contains: "No one is available to approve exec_command" },
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "ls" } }] },
    },
    { expect: { last_tool_result_contains: "habits.py" }, reply: { text: "stopped" } },
  ])));
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(
    ["exec", "-a", "untrusted", "-s", "danger-full-access", "clean up"],
    { cwd: repo, home },
  );
  assert.deepEqual(fake.failures, []);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /denied: No one is available to approve exec_command/);
  assert.match(result.stderr, /warning: sandbox_mode is danger-full-access/);
  assert.equal(await Deno.stat(join(repo, "habits.py")).then((s) => s.isFile), true);
  assert.equal(fake.remaining(), 0);
});

Deno.test("exec in a read-only sandbox refuses file edits with a clear message to the model", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const patch = "*** Begin Patch\n*** Add File: new.txt\n+x\n*** End Patch\n";
  await using fake = await startFakeProvider(parseScript(script([
    { reply: { tool_calls: [{ name: "apply_patch", args: { input: patch } }] } },
    {
      expect: { last_tool_result_contains: "sandbox is read-only" },
      reply: { text: "cannot edit" },
    },
  ])));
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(["exec", "-s", "read-only", "add a file"], { cwd: repo, home });
  assert.deepEqual(fake.failures, []);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await Deno.stat(join(repo, "new.txt")).then(() => true, () => false), false);
});

Deno.test({
  name: `exec under workspace-write keeps apply_patch from writing through a symlink${skip}`,
  ignore: BWRAP.ignore,
  async fn() {
    await using dirs = tempDirs();
    const repo = await dirs.add(fixtureRepo("habits"));
    const outside = await dirs.add(Deno.makeTempDir({ prefix: "oi-outside-" }));
    const patch = "*** Begin Patch\n*** Add File: escape/pwned.txt\n+pwned\n*** End Patch\n";
    await using fake = await startFakeProvider(parseScript(script([
      {
        reply: {
          tool_calls: [{ name: "exec_command", args: { cmd: `ln -s ${outside} escape` } }],
        },
      },
      {
        expect: { last_tool_result_contains: "exited with code 0" },
        reply: { tool_calls: [{ name: "apply_patch", args: { input: patch } }] },
      },
      { expect: { last_tool_result_contains: "refused by the sandbox" }, reply: { text: "ok" } },
    ])));
    const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
    const result = await interpreter(["exec", "-s", "workspace-write", "try it"], {
      cwd: repo,
      home,
    });
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await Deno.stat(join(outside, "pwned.txt")).then(() => true, () => false), false);
    assert.doesNotMatch(result.stderr, /symlink escapes are not blocked/);
  },
});
