import assert from "node:assert/strict";
import { runHookCommand } from "./run_hook.ts";
import { pidNamespaceWorks } from "./_hook_namespace.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { until } from "../../tests/e2e/_poll.ts";
import { processesWith } from "../../sandbox/_test_processes.ts";

const linux = Deno.build.os === "linux";
const BWRAP = await need("bwrap");
/** What run_hook.ts itself checks before it puts a hook in a PID namespace. */
const bwrapWorks = linux && await pidNamespaceWorks("bwrap");

/** A hook that starts a `setsid` child sleeping for a unique time, then outstays its timeout. */
async function setsidHook(opts: { bwrap?: string } = {}) {
  const cwd = await Deno.makeTempDir({ prefix: "oi_hook_" });
  const nap = `${1000 + Math.floor(Math.random() * 1e6) / 1e6}`;
  const child = ["sleep", nap];
  try {
    const started = Date.now();
    const result = await runHookCommand(
      `setsid ${child.join(" ")} </dev/null >/dev/null 2>&1 & echo started; sleep 30`,
      { cwd, env: { PATH: "/usr/bin:/bin" }, input: {}, timeoutSec: 1, ...opts },
    );
    assert.equal(result.timedOut, true);
    assert.equal(result.stdout, "started\n");
    assert.ok(Date.now() - started < 10_000, "the hook was stopped at its timeout");
    return { child, cwd };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

Deno.test({
  name: `a hook's setsid child is gone once the hook is stopped at its timeout${BWRAP.note}`,
  ignore: BWRAP.ignore,
  async fn() {
    const { child } = await setsidHook();
    await until(
      "the setsid child to be gone",
      async () => (await processesWith(child)).length === 0,
    );
  },
});

Deno.test({
  name: `control: without bwrap a hook past its timeout is still stopped, its group killed${
    linux ? "" : " (SKIPPED: Linux)"
  }`,
  ignore: !linux,
  async fn() {
    const { child } = await setsidHook({ bwrap: "/no/such/bwrap" });
    // Outside a PID namespace the setsid child escapes the process group: what the namespace is
    // for, and proof that the test above sees such a child.
    const left = await processesWith(child);
    for (const pid of left) Deno.kill(pid, "SIGKILL");
    assert.equal(left.length, 1, "the setsid child outlived its group");
  },
});

Deno.test("control: a quick hook runs, reads its input and its output is read", async () => {
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_hook_" }));
  try {
    const ours = linux ? await Deno.readLink("/proc/self/ns/pid") : "";
    for (const bwrap of [undefined, "/no/such/bwrap"]) {
      const result = await runHookCommand(
        'read -r line; echo "$line"; pwd; echo warn >&2; readlink /proc/self/ns/pid; exit 3',
        { cwd, env: { PATH: "/usr/bin:/bin" }, input: { a: 1 }, timeoutSec: 5, bwrap },
      );
      const [input, dir, ns] = result.stdout.split("\n");
      assert.deepEqual(
        { ...result, stdout: [input, dir].join("\n") },
        { code: 3, stdout: `{"a":1}\n${cwd}`, stderr: "warn\n", timedOut: false },
      );
      if (linux) {
        const own = bwrap === undefined && bwrapWorks;
        assert.equal(ns !== ours, own, own ? "a PID namespace of its own" : "the host's");
      }
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test({
  name: `a bwrap that cannot make the namespace runs the hook without it, once${
    linux ? "" : " (SKIPPED: Linux)"
  }`,
  ignore: !linux,
  async fn() {
    const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_hook_" }));
    try {
      const broken = `${cwd}/bwrap`;
      await Deno.writeTextFile(broken, "#!/bin/sh\necho 'bwrap: No permissions' >&2; exit 1\n");
      await Deno.chmod(broken, 0o755);
      const hook = 'echo ran >> runs; echo "bwrap: says the hook" >&2; exit 1';
      const env = { PATH: "/usr/bin:/bin" };
      const result = await runHookCommand(hook, {
        cwd,
        env,
        input: {},
        timeoutSec: 5,
        bwrap: broken,
      });
      assert.deepEqual([result.code, result.stderr], [1, "bwrap: says the hook\n"]);
      assert.equal(await Deno.readTextFile(`${cwd}/runs`), "ran\n");
      // Control: a hook that fails in the words of bwrap under a working one is not run again.
      if (!bwrapWorks) return;
      await runHookCommand(hook, { cwd, env, input: {}, timeoutSec: 5 });
      assert.equal(await Deno.readTextFile(`${cwd}/runs`), "ran\nran\n");
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
  },
});
