import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { until } from "../../../tests/e2e/_poll.ts";
import { runCheck } from "./verifier.ts";
import { need } from "../../../sandbox/_test_requires.ts";
import { processesWith } from "../../../sandbox/_test_processes.ts";

const HELLO_TASK = fileURLToPath(
  new URL("../../../tests/fixtures/harbor_tasks/hello", import.meta.url),
);

/** Checks run only in bubblewrap. */
const BWRAP = await need("bwrap");
const SKIP = BWRAP.ignore;
const NO_BWRAP = BWRAP.note;

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

/** A copy's working directory, a folder outside it and a trial's verifier folder. */
async function checkDirs() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "eval_verifier_" }));
  const [workdir, verifierDir, outside] = ["work", "verifier", "outside"].map((n) => join(root, n));
  for (const dir of [workdir, verifierDir, outside]) await Deno.mkdir(dir);
  return {
    root,
    workdir,
    verifierDir,
    outside,
    opts: (extra: { timeoutSec?: number; env?: Record<string, string> } = {}) => ({
      workdir,
      writable: [workdir],
      verifierDir,
      timeoutSec: extra.timeoutSec ?? 60,
      network: false,
      env: extra.env ?? ENV,
    }),
    read: (name: string) => Deno.readTextFile(join(verifierDir, name)),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test({
  name: "runCheck() gives reward 1 for a command that exits 0, and writes its output" + NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    await Deno.writeTextFile(join(dirs.workdir, "marker"), "here");
    const outcome = await runCheck({ command: "cat marker; echo err >&2; exit 0" }, dirs.opts());
    assert.deepEqual(outcome, { reward: 1 });
    assert.equal(await dirs.read("reward.txt"), "1\n");
    assert.equal(await dirs.read("test-stdout.txt"), "here");
    assert.equal(await dirs.read("test-stderr.txt"), "err\n");
  },
});

Deno.test({
  name: "runCheck() gives reward 0 for a command that exits 3" + NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    const outcome = await runCheck({ command: "echo failing; exit 3" }, dirs.opts());
    assert.deepEqual(outcome, { reward: 0 });
    assert.equal(await dirs.read("reward.txt"), "0\n");
    assert.equal(await dirs.read("test-stdout.txt"), "failing\n");
  },
});

Deno.test({
  name: "runCheck() runs a check confined: only its folders writable, only its environment, " +
    "no network" + NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    const outsideFile = join(dirs.outside, "escaped");
    const check = [
      `echo x > '${outsideFile}' && echo WROTE-OUTSIDE`,
      "echo ok > inside && echo WROTE-INSIDE",
      'echo "KEY=${MOCK_API_KEY:-unset} GIVEN=$GIVEN"',
      "tail -n +3 /proc/net/dev | sed 's/:.*//; s/ //g; s/^/IF=/'",
    ].join("; ");
    const env = { ...ENV, GIVEN: "yes" };
    const outcome = await runCheck({ command: check }, dirs.opts({ env }));
    assert.deepEqual(outcome, { reward: 1 });
    const stdout = await dirs.read("test-stdout.txt");
    assert.doesNotMatch(stdout, /WROTE-OUTSIDE/);
    assert.equal(await Deno.lstat(outsideFile).then(() => true, () => false), false);
    assert.match(stdout, /WROTE-INSIDE/, "the control: the copy is writable");
    assert.equal(await Deno.readTextFile(join(dirs.workdir, "inside")), "ok\n");
    assert.match(stdout, /KEY=unset GIVEN=yes/, "only the environment given reaches the check");
    assert.deepEqual(stdout.match(/^IF=.*$/gm), ["IF=lo"], "no network but loopback");
  },
});

Deno.test({
  name: "runCheck() stops a check at its time limit, killing everything it started" + NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    // A duration no other process uses, to find the check's sleeps among the host's processes.
    const marker = `3${crypto.getRandomValues(new Uint32Array(1))[0] % 100000}.5`;
    const started = Date.now();
    const outcome = await runCheck(
      { command: `sleep ${marker} & sleep ${marker}; wait` },
      dirs.opts({ timeoutSec: 1 }),
    );
    assert.ok(Date.now() - started < 20_000, "the check ran past its time limit");
    assert.equal(outcome.reward, 0);
    assert.equal(outcome.error, "The check timed out after 1 s");
    assert.equal(await dirs.read("reward.txt"), "0\n");
    await until(
      "the check's sleeps to end",
      async () => (await processesWith(["sleep", marker])).length === 0,
      10_000,
    );
  },
});

Deno.test({
  name: "runCheck() runs a Harbor task's tests/test.sh, which writes reward.txt at /logs/verifier" +
    NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    assert.deepEqual(await runCheck({ harborDir: HELLO_TASK }, dirs.opts()), { reward: 0 });
    assert.equal(await dirs.read("reward.txt"), "0\n");

    await Deno.writeTextFile(join(dirs.workdir, "hello.txt"), "Hello\n");
    assert.deepEqual(await runCheck({ harborDir: HELLO_TASK }, dirs.opts()), { reward: 1 });
    assert.equal(await dirs.read("reward.txt"), "1\n");
  },
});

Deno.test({
  name: "runCheck() gives reward 0 with an error when a Harbor test.sh writes no reward; " +
    "reward.json counts" + NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    const task = join(dirs.root, "task");
    await Deno.mkdir(join(task, "tests"), { recursive: true });
    const script = join(task, "tests", "test.sh");
    await Deno.writeTextFile(script, "echo ran\nexit 0\n");
    assert.deepEqual(await runCheck({ harborDir: task }, dirs.opts()), {
      reward: 0,
      error: "tests/test.sh exited 0 without writing reward.txt",
    });
    assert.equal(await dirs.read("reward.txt"), "0\n");
    assert.equal(await dirs.read("test-stdout.txt"), "ran\n");

    await Deno.remove(join(dirs.verifierDir, "reward.txt"));
    await Deno.writeTextFile(script, `echo '{"reward": 0.5}' > /logs/verifier/reward.json\n`);
    assert.deepEqual(await runCheck({ harborDir: task }, dirs.opts()), { reward: 0.5 });
  },
});

Deno.test({
  name: "runCheck() gives a Harbor test a read-only root, and what it plants in /logs/verifier " +
    "leads nowhere" + NO_BWRAP,
  ignore: SKIP,
  async fn() {
    await using dirs = await checkDirs();
    const task = join(dirs.root, "task");
    await Deno.mkdir(join(task, "tests"), { recursive: true });
    const target = join(dirs.outside, "target.txt");
    await Deno.writeTextFile(target, "1\n");
    await Deno.writeTextFile(
      join(task, "tests", "test.sh"),
      [
        "touch /planted && echo ROOT-WRITABLE",
        "echo data > /tests/more && echo TESTS-WRITABLE",
        `ln -s '${target}' /logs/verifier/reward.txt`,
        `ln -s '${target}' /logs/verifier/test-stderr.txt`,
        "echo RAN",
      ].join("\n"),
    );
    const outcome = await runCheck({ harborDir: task }, dirs.opts());
    assert.deepEqual(outcome, {
      reward: 0,
      error: "tests/test.sh exited 0 without writing reward.txt",
    });
    const stdout = await dirs.read("test-stdout.txt");
    assert.match(stdout, /RAN/, "the control: the script ran");
    assert.doesNotMatch(stdout, /ROOT-WRITABLE|TESTS-WRITABLE/);
    assert.equal(
      await Deno.readTextFile(target),
      "1\n",
      "the link's target is neither read nor written",
    );
    assert.ok(!(await Deno.lstat(join(dirs.verifierDir, "test-stderr.txt"))).isSymlink);
    assert.ok(!(await Deno.lstat(join(dirs.verifierDir, "reward.txt"))).isSymlink);
    assert.equal(await dirs.read("reward.txt"), "0\n");
  },
});
