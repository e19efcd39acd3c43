/**
 * `interpreter arena` end to end on the habit tracker: the scripted provider plays a model that
 * fixes the bug through native (one failed command on the way), fixes it through claude-code
 * after two failed calls, and only scribbles a notes file through minimal. `--pick best` must
 * apply native's fix alone; `--pick none` must leave the tree as it was; `--pick best` without a
 * check is refused before any request.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { loadScript } from "../fake_provider/script.ts";
import { EVAL_HARNESS_TOOLS, evalRoutes } from "./_eval_env.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, run, tempDirs } from "./_harness_env.ts";

const CHECK = "python3 -m pytest -q -p no:cacheprovider";
const PROMPT = "fix the failing test";

/** native fixes, claude-code fumbles then fixes, minimal writes scratch.txt and stops. */
async function arenaRoutes() {
  const scribbler = await loadScript(
    join(REPO, "tests", "fixtures", "scripts", "arena", "scribbler_minimal.jsonl"),
  );
  return [
    ...await evalRoutes({ native: "fixer", "claude-code": "fumbler" }),
    { model: "fake-model", tools_include: EVAL_HARNESS_TOOLS.minimal, script: scribbler },
  ];
}

async function gitLines(repo: string, ...args: string[]): Promise<string[]> {
  return (await run("git", args, repo)).stdout.split("\n").filter(Boolean);
}

Deno.test("arena --pick best applies the passing contestant with the fewest failed calls and leaves no copy behind", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const tmp = await dirs.add(Deno.makeTempDir({ prefix: "oi-arena-tmp-" }));
  await using fake = startFakeProvider([], { routes: await arenaRoutes() });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter([
    "arena",
    ...["--harness", "native,minimal,claude-code", "--check", CHECK, "--pick", "best", PROMPT],
  ], { cwd: repo, home, env: { TMPDIR: tmp } });

  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, [], "every request must satisfy its script");
  // The table: every contestant with its check; the winner marked.
  assert.match(result.stdout, /^\*\s+a\s+native\s+fake-model\s+pass\s/m, result.stdout);
  assert.match(result.stdout, /^\s+b\s+minimal\s+fake-model\s+fail\s/m);
  assert.match(result.stdout, /^\s+c\s+claude-code\s+fake-model\s+pass\s/m);
  assert.match(result.stderr, /Applied a \(native × fake-model\): 1 file changed/);
  // One status line per phase change without a terminal.
  for (const phase of ["copying", "running", "checking"]) {
    assert.match(result.stderr, new RegExp(`^c\\s+claude-code\\b.*${phase}`, "m"), result.stderr);
  }

  // Only the winner's fix is in the working tree: no scratch.txt from minimal.
  assert.match(await Deno.readTextFile(join(repo, "habits.py")), /\(today - previous\)\.days/);
  assert.deepEqual(await gitLines(repo, "status", "--porcelain"), [" M habits.py"]);

  // No worktree and no copy left; every trajectory listed exists.
  assert.equal((await gitLines(repo, "worktree", "list")).length, 1);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp)), []);
  const trajectories = result.stdout.match(/\S+\/agent\/trajectory\.json/g) ?? [];
  assert.equal(trajectories.length, 3, result.stdout);
  for (const file of trajectories) {
    assert.ok(file.startsWith(join(home, "arena")), `${file} is not under ${home}/arena`);
    assert.ok((await Deno.stat(file)).isFile, file);
  }
  assert.equal(result.stdout.match(/interpreter resume \S+/g)?.length, 3, result.stdout);

  // The job folder is an eval job folder.
  const job = result.stdout.match(/^Job folder: (\S+)/m)![1];
  const report = await interpreter(["eval", "report", job], { cwd: repo, home });
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /^=\s+claude-code\s+fake-model\s+1\/1 100%/m, report.stdout);
  assert.match(report.stdout, /^\s+minimal\s+fake-model\s+0\/1 0%/m);
});

Deno.test("arena --pick none runs the contestants and leaves the working tree byte for byte as it was", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = startFakeProvider([], { routes: await arenaRoutes() });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const before = await Deno.readFile(join(repo, "habits.py"));
  const result = await interpreter(
    ["arena", "--harness", "native,minimal", "--pick", "none", PROMPT],
    { cwd: repo, home },
  );

  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, []);
  assert.ok(fake.requests.length >= 7, "both contestants ran");
  assert.match(result.stderr, /Nothing applied \(--pick none\)/);
  assert.doesNotMatch(result.stderr, /checking/, "without --check no check runs");
  // Without --check the check column shows no result.
  assert.match(result.stdout, /^\s+a\s+native\s+fake-model\s+[-—]\s/m, result.stdout);
  assert.deepEqual(await gitLines(repo, "status", "--porcelain"), []);
  assert.deepEqual(await Deno.readFile(join(repo, "habits.py")), before);
});

Deno.test("arena refuses --pick best without --check (exit 2) and a folder outside git, before any request", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = startFakeProvider([], { routes: await arenaRoutes() });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(
    ["arena", "--harness", "native,minimal", "--pick", "best", PROMPT],
    { cwd: repo, home },
  );

  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /--pick best needs --check/);
  assert.match(result.stderr, /hint: Add --check "CMD"/);
  assert.equal(fake.requests.length, 0);
  assert.deepEqual(await gitLines(repo, "status", "--porcelain"), []);

  // Outside git the changes could not come back as a patch: refused, naming why and the fix.
  const plain = await dirs.add(Deno.makeTempDir({ prefix: "oi-arena-plain-" }));
  const outside = await interpreter(["arena", "--harness", "native,minimal", PROMPT], {
    cwd: plain,
    home,
  });
  assert.equal(outside.code, 1, outside.stderr);
  assert.match(outside.stderr, /not in a git repository: the arena brings/);
  assert.match(outside.stderr, /hint: Run it in a git repository/);
  assert.equal(fake.requests.length, 0);
});
