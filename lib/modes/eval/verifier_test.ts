import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alive, until } from "../../../tests/e2e/_poll.ts";
import { runCheck } from "./verifier.ts";

const HELLO_TASK = fileURLToPath(
  new URL("../../../tests/fixtures/harbor_tasks/hello", import.meta.url),
);

const HAS_BWRAP = await new Deno.Command("bwrap", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);
const NO_BWRAP = HAS_BWRAP ? "" : " (skipped: bubblewrap is not installed)";

/** A copy's working directory and a trial's verifier folder, removed on dispose. */
async function checkDirs() {
  const root = await Deno.makeTempDir({ prefix: "eval_verifier_" });
  const workdir = join(root, "work");
  const verifierDir = join(root, "verifier");
  await Deno.mkdir(workdir);
  await Deno.mkdir(verifierDir);
  return {
    root,
    workdir,
    verifierDir,
    read: (name: string) => Deno.readTextFile(join(verifierDir, name)),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** Whether process `pid` has ended (a zombie waiting for its reaper counts as ended). */
async function gone(pid: number): Promise<boolean> {
  if (!alive(pid)) return true;
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => undefined);
  return stat !== undefined && /^\d+ \(.*\) Z/.test(stat);
}

Deno.test("runCheck() gives reward 1 for a command that exits 0, and writes its output", async () => {
  await using dirs = await checkDirs();
  await Deno.writeTextFile(join(dirs.workdir, "marker"), "here");
  const outcome = await runCheck(
    { command: "cat marker; echo err >&2; exit 0" },
    { workdir: dirs.workdir, verifierDir: dirs.verifierDir, timeoutSec: 30 },
  );
  assert.deepEqual(outcome, { reward: 1 });
  assert.equal(await dirs.read("reward.txt"), "1\n");
  assert.equal(await dirs.read("test-stdout.txt"), "here");
  assert.equal(await dirs.read("test-stderr.txt"), "err\n");
});

Deno.test("runCheck() gives reward 0 for a command that exits 3", async () => {
  await using dirs = await checkDirs();
  const outcome = await runCheck(
    { command: "echo failing; exit 3" },
    { workdir: dirs.workdir, verifierDir: dirs.verifierDir, timeoutSec: 30 },
  );
  assert.deepEqual(outcome, { reward: 0 });
  assert.equal(await dirs.read("reward.txt"), "0\n");
  assert.equal(await dirs.read("test-stdout.txt"), "failing\n");
});

Deno.test("runCheck() stops a check at its time limit, killing its process group", async () => {
  await using dirs = await checkDirs();
  const pidFile = join(dirs.root, "sleep.pid");
  const started = Date.now();
  const outcome = await runCheck(
    { command: `sleep 30 & echo $! > '${pidFile}'; wait` },
    { workdir: dirs.workdir, verifierDir: dirs.verifierDir, timeoutSec: 1 },
  );
  assert.ok(Date.now() - started < 20_000, "the check ran past its time limit");
  assert.equal(outcome.reward, 0);
  assert.equal(outcome.error, "The check timed out after 1 s");
  assert.equal(await dirs.read("reward.txt"), "0\n");
  const pid = Number((await Deno.readTextFile(pidFile)).trim());
  assert.ok(pid > 0);
  await until(`the check's sleep (pid ${pid}) to end`, () => gone(pid), 10_000);
});

Deno.test({
  name: "runCheck() runs a Harbor task's tests/test.sh, which writes reward.txt at /logs/verifier" +
    NO_BWRAP,
  ignore: !HAS_BWRAP,
  async fn() {
    await using dirs = await checkDirs();
    const opts = { workdir: dirs.workdir, verifierDir: dirs.verifierDir, timeoutSec: 60 };
    assert.deepEqual(await runCheck({ harborDir: HELLO_TASK }, opts), { reward: 0 });
    assert.equal(await dirs.read("reward.txt"), "0\n");

    await Deno.writeTextFile(join(dirs.workdir, "hello.txt"), "Hello\n");
    assert.deepEqual(await runCheck({ harborDir: HELLO_TASK }, opts), { reward: 1 });
    assert.equal(await dirs.read("reward.txt"), "1\n");
  },
});

Deno.test({
  name: "runCheck() gives reward 0 with an error when a Harbor test.sh writes no reward; " +
    "reward.json counts" + NO_BWRAP,
  ignore: !HAS_BWRAP,
  async fn() {
    await using dirs = await checkDirs();
    const task = join(dirs.root, "task");
    await Deno.mkdir(join(task, "tests"), { recursive: true });
    const script = join(task, "tests", "test.sh");
    await Deno.writeTextFile(script, "echo ran\nexit 0\n");
    const opts = { workdir: dirs.workdir, verifierDir: dirs.verifierDir, timeoutSec: 60 };
    assert.deepEqual(await runCheck({ harborDir: task }, opts), {
      reward: 0,
      error: "tests/test.sh exited 0 without writing reward.txt",
    });
    assert.equal(await dirs.read("reward.txt"), "0\n");
    assert.equal(await dirs.read("test-stdout.txt"), "ran\n");

    await Deno.remove(join(dirs.verifierDir, "reward.txt"));
    await Deno.writeTextFile(script, `echo '{"reward": 0.5}' > /logs/verifier/reward.json\n`);
    assert.deepEqual(await runCheck({ harborDir: task }, opts), { reward: 0.5 });
  },
});
