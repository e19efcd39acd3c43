import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");
const skip = BWRAP.note;

/** The six calls that ran under `untrusted` with no approval asked (issue 7, item 5). */
const BYPASSES: Record<string, unknown>[] = [
  { cmd: "find . -maxdepth 0 {-exec,touch} x {} +" },
  { cmd: "sed -n 1p {-i,two_lines.txt}" },
  { cmd: "git log {--output=x,-1}" },
  { cmd: "git log -1 {--output,x}" },
  { cmd: "uniq two_lines.txt OUT" },
  { cmd: "path/to/cat two_lines.txt" },
  { cmd: "ls", shell: "tools/evil" },
];

const MARKER_SCRIPT = '#!/bin/sh\necho ran > "$(dirname "$0")/marker"\n';

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("exec -a untrusted -s danger-full-access asks before each known bypass", async () => {
  const repo = await fixtureRepo("habits");
  await Deno.writeTextFile(join(repo, "two_lines.txt"), "one\ntwo\n");
  for (const script of ["path/to/cat", "tools/evil"]) {
    await Deno.mkdir(join(repo, script, ".."), { recursive: true });
    await Deno.writeTextFile(join(repo, script), MARKER_SCRIPT, { mode: 0o755 });
  }
  const denied = { last_tool_result_contains: "No one is available to approve exec_command" };
  const lines: unknown[] = BYPASSES.map((args, i) => ({
    ...(i > 0 ? { expect: denied } : {}),
    reply: { tool_calls: [{ name: "exec_command", args }] },
  }));
  lines.push({ expect: denied, reply: { text: "stopped" } });
  await using fake = await startFakeProvider(
    parseScript(lines.map((l) => JSON.stringify(l)).join("\n")),
  );
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(
      ["exec", "-a", "untrusted", "-s", "danger-full-access", "try them"],
      { cwd: repo, home },
    );
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr.match(/denied: No one is available to approve/g)?.length,
      BYPASSES.length,
    );
    assert.equal(fake.remaining(), 0);
    for (const left of ["x", "OUT", "path/to/marker", "tools/marker"]) {
      assert.equal(await exists(join(repo, left)), false, `${left} was written`);
    }
    assert.equal(await Deno.readTextFile(join(repo, "two_lines.txt")), "one\ntwo\n");
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test({
  name: `exec -a on-failure without a terminal tells the model the rerun was refused${skip}`,
  ignore: BWRAP.ignore,
  async fn() {
    const repo = await fixtureRepo("habits");
    const target = join("/etc", `oi_on_failure_test_${crypto.randomUUID()}`);
    await using fake = await startFakeProvider(parseScript(
      [
        { reply: { tool_calls: [{ name: "exec_command", args: { cmd: `touch ${target}` } }] } },
        {
          expect: {
            last_tool_result_contains: "no one is available to give it, so it was not rerun",
          },
          reply: { text: "told" },
        },
      ].map((l) => JSON.stringify(l)).join("\n"),
    ));
    const home = await fakeHome(fake.baseUrl, "chat");
    try {
      const result = await interpreter(
        ["exec", "-a", "on-failure", "-s", "workspace-write", "touch it"],
        { cwd: repo, home },
      );
      assert.deepEqual(fake.failures, []);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /Not rerunning .* unsandboxed: no one is available to approve it/,
      );
      assert.equal(await exists(target), false);
      assert.equal(fake.remaining(), 0);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
