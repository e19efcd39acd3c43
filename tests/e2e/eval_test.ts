/**
 * `interpreter eval` end to end: the real CLI runs the habit tracker across three harnesses
 * against the scripted provider, which plays a different model per harness (one that fixes the
 * bug, one that makes argument errors, one that loops). Each run is a real `exec` in a real
 * local clone with a real check; the job folder must be what Harbor reads. A model that plants
 * a `conftest.py` gets nothing from the check that runs it.
 */
import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { startFakeProvider } from "../fake_provider/server.ts";
import { loadScript } from "../fake_provider/script.ts";
import { harborLayoutProblems } from "../_harbor_layout.ts";
import { adHocTaskName } from "../../lib/modes/eval/job_layout.ts";
import { VERSION } from "../../lib/version.ts";
import { EVAL_HARNESS_TOOLS, evalRoutes } from "./_eval_env.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, run, tempDirs } from "./_harness_env.ts";
import { until } from "./_poll.ts";

const CHECK = "python3 -m pytest -q -p no:cacheprovider";

interface Run {
  trial: string;
  harness: string;
  attempt: number;
  passed: boolean;
  status: string;
  requests: number;
  failed_tool_calls: Record<string, number>;
  loop_guard_stops: number;
  session_id: string | null;
  harness_hash: string | null;
  diff: { files: number } | null;
}

async function scriptLength(quality: string, harness: string): Promise<number> {
  const file = join(REPO, "tests", "fixtures", "scripts", "eval", `${quality}_${harness}.jsonl`);
  return (await loadScript(file)).length;
}

async function trialDirs(job: string): Promise<string[]> {
  const out = [];
  for await (const e of Deno.readDir(job)) if (e.isDirectory) out.push(e.name);
  return out.sort();
}

/**
 * What Harbor would record for the job of the first test: the folder's name, the agent as our
 * Harbor agent reports itself with the harness kept apart, pass@2 of 3 repetitions, and a
 * config with an `environment.type` outside Harbor's enum failing the layout check.
 */
async function assertHarborRecords(job: string, trials: string[]): Promise<void> {
  const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));
  const config = await readJson(join(job, "config.json"));
  assert.deepEqual([config.jobs_dir, config.job_name], [dirname(job), basename(job)]);
  const result = await readJson(join(job, trials[0], "result.json"));
  assert.deepEqual([result.agent_info.name, result.agent_info.version], ["interpreter", VERSION]);
  assert.equal(result.config.agent.kwargs.harness, result.agent_result.metadata.harness);
  const evals = (await readJson(join(job, "result.json"))).stats.evals;
  assert.deepEqual(evals["interpreter-native__fake-model__adhoc"].pass_at_k, { "2": 1 });
  assert.deepEqual(evals["interpreter-minimal__fake-model__adhoc"].pass_at_k, { "2": 0 });
  const file = join(job, "config.json");
  const text = await Deno.readTextFile(file);
  try {
    await Deno.writeTextFile(file, JSON.stringify({ ...config, environment: { type: "local" } }));
    const problems = await harborLayoutProblems(job);
    assert.ok(problems.some((p) => p.includes("/environment/type")), problems.join("\n"));
  } finally {
    await Deno.writeTextFile(file, text);
  }
}

async function worktrees(repo: string): Promise<number> {
  const list = await run("git", ["worktree", "list", "--porcelain"], repo);
  return list.stdout.split("\n").filter((l) => l.startsWith("worktree ")).length;
}

/** A key in eval's environment that no check may read. */
const MOCK_KEY = "mock-secret-4f1c";

/**
 * A folder outside `/tmp` (which checks get empty), so that only the read-only root keeps a
 * check from writing there: a temp folder in HOME, else in the temp folder.
 */
function hostDir(prefix: string): Promise<string> {
  const home = Deno.env.get("HOME");
  return Deno.makeTempDir({ prefix, ...(home ? { dir: home } : {}) })
    .catch(() => Deno.makeTempDir({ prefix }));
}

/** What the project config of `hostRepo()` sets: seen in requests only where it is trusted. */
const PROJECT_MAX_TOKENS = 1234;

/**
 * The habit tracker as a repository in `hostDir()`, with a project config, and a folder beside
 * it for escapes.
 */
async function hostRepo(dirs: { add(dir: Promise<string>): Promise<string> }) {
  const root = await dirs.add(hostDir(".oi-eval-host-"));
  const [repo, outside] = [join(root, "repo"), join(root, "outside")];
  await Deno.mkdir(repo);
  await Deno.mkdir(outside);
  const fixture = join(REPO, "tests", "fixtures", "habits");
  for await (const entry of Deno.readDir(fixture)) {
    if (entry.isFile) await Deno.copyFile(join(fixture, entry.name), join(repo, entry.name));
  }
  await Deno.mkdir(join(repo, ".openinterpreter"));
  await Deno.writeTextFile(
    join(repo, ".openinterpreter", "config.toml"),
    `model_max_output_tokens = ${PROJECT_MAX_TOKENS}\n`,
  );
  const git = (...args: string[]) =>
    run("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], repo);
  await git("init", "-q");
  await git("add", ".");
  await git("commit", "-qm", "init");
  return { repo, outside, hook: join(repo, ".git", "hooks", "pre-commit") };
}

/**
 * The agent's first turn: a `conftest.py` that, when pytest loads it in a check, tries to write
 * outside the copy, to write a hook into the main repository's `.git`, and to read keys.
 */
function plantConftest(at: { outside: string; hook: string }) {
  const conftest = [
    "import os, pathlib",
    "def attempt(name, action):",
    "    try:",
    "        action()",
    '        print("ESCAPE %s: done" % name)',
    "    except OSError as error:",
    '        print("ESCAPE %s: refused" % name)',
    `attempt("outside", lambda: pathlib.Path(${
      JSON.stringify(join(at.outside, "escaped"))
    }).write_text("x"))`,
    `attempt("hook", lambda: pathlib.Path(${JSON.stringify(at.hook)}).write_text("#!/bin/sh\\n"))`,
    'print("KEY=%s FAKE=%s" % (os.environ.get("MOCK_API_KEY", "absent"), os.environ.get("FAKE_API_KEY", "absent")))',
    'print("PROOF=%s" % os.environ.get("PROOF", "absent"))',
    'print("HOME_IN_COPY=%s" % os.environ["HOME"].endswith(".home"))',
  ].join("\n");
  const cmd = `cat > conftest.py <<'EOF'\n${conftest}\nEOF`;
  return { reply: { tool_calls: [{ name: "exec_command", args: { cmd } }] } };
}

/** Asserts that the planted conftest ran in the check (stdout `out`) and got nothing. */
async function assertConftestHeld(out: string, at: { outside: string; hook: string }) {
  assert.match(out, /ESCAPE outside: refused/, out);
  assert.match(out, /ESCAPE hook: refused/, out);
  assert.match(out, /KEY=absent FAKE=absent/, out);
  assert.match(out, /HOME_IN_COPY=True/, out);
  assert.ok(!out.includes(MOCK_KEY));
  assert.deepEqual(await Array.fromAsync(Deno.readDir(at.outside)), []);
  assert.equal(await Deno.lstat(at.hook).then(() => true, () => false), false);
}

/** The output limits the fake provider was asked for. */
function maxTokensAsked(fake: { requests: Array<{ body: unknown }> }): unknown[] {
  return fake.requests.map((r) => (r.body as Record<string, unknown>).max_tokens);
}

/** The pids of processes whose command line mentions `text`. */
async function processesMentioning(text: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.includes(text)) pids.push(Number(entry.name));
  }
  return pids;
}

Deno.test("eval runs native, claude-code and minimal 3 times each in local clones and reports pass rates, intervals, steps and failed calls in Harbor's layout", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const tmp = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-tmp-" }));
  const out = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-out-" }));
  const plan = { native: "fixer", "claude-code": "fumbler", minimal: "looper" };
  await using fake = startFakeProvider([], { routes: await evalRoutes(plan) });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const job = join(out, "job");
  const [json, html, predictions] = ["runs.json", "report.html", "preds.jsonl"].map((f) =>
    join(out, f)
  );
  const result = await interpreter([
    "eval",
    ...["--harness", "native,claude-code,minimal", "--repeat", "3", "--jobs", "2"],
    ...["--check", CHECK, "--out", job, "--json", json, "--html", html],
    ...["--predictions", predictions, "fix the failing test"],
  ], { cwd: repo, home, env: { TMPDIR: tmp } });

  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, [], "every request must satisfy the wire invariants");
  assert.match(
    result.stderr,
    /9 runs \(1 task × 3 harness×model pairs × 3 repetitions\), 2 at a time/,
  );
  assert.equal(result.stderr.match(/^\[\d\/9\] (pass|FAIL) /gm)?.length, 9, result.stderr);

  const { runs, summary } = JSON.parse(await Deno.readTextFile(json)) as {
    runs: Run[];
    summary: Array<{ rows: Array<Record<string, unknown>> }>;
  };
  assert.equal(runs.length, 9);
  const of = (harness: string) => runs.filter((r) => r.harness === harness);
  for (const [harness, quality] of Object.entries(plan)) {
    const mine = of(harness);
    assert.deepEqual(mine.map((r) => r.attempt).sort(), [1, 2, 3]);
    const steps = await scriptLength(quality, harness);
    for (const r of mine) {
      assert.equal(r.requests, steps, `${harness}: steps of ${JSON.stringify(r)}`);
      assert.match(r.harness_hash ?? "", /^[0-9a-f]{64}$/);
      assert.ok(r.session_id, `${harness} run without a session id`);
    }
  }
  const failed = (harness: string) => of(harness).map((r) => r.failed_tool_calls);
  assert.ok(of("native").every((r) => r.passed && r.status === "completed"));
  assert.ok(failed("native").every((f) => f.command === 1 && f.arguments === 0));
  assert.ok(of("claude-code").every((r) => r.passed));
  assert.ok(failed("claude-code").every((f) => f.arguments === 1 && f.unknown_tool === 1));
  assert.ok(of("minimal").every((r) => !r.passed && r.status === "repeated_call"));
  assert.ok(of("minimal").every((r) => r.loop_guard_stops === 1 && r.diff?.files === 0));

  const rows = summary[0].rows;
  assert.deepEqual(rows.map((r) => [r.harness, r.passes, r.n]), [
    ["native", 3, 3],
    ["claude-code", 3, 3],
    ["minimal", 0, 3],
  ]);
  const interval = (r: Record<string, unknown>) => r.interval as { low: number; high: number };
  assert.ok(Math.abs(interval(rows[0]).low - 0.4385) < 0.001, JSON.stringify(rows[0]));
  assert.ok(Math.abs(interval(rows[2]).high - 0.5615) < 0.001, JSON.stringify(rows[2]));
  assert.equal(rows[0].best, true);

  // The table, plain (NO_COLOR): the best row marked, pass rates with their intervals.
  // native and claude-code tie for best: both rows are marked "=".
  assert.match(result.stdout, /^=\s+native\s+fake-model\s+3\/3 100%\s+44-100%/m);
  assert.match(result.stdout, /^=\s+claude-code\s+fake-model\s+3\/3 100%/m);
  assert.match(result.stdout, /^\s+minimal\s+fake-model\s+0\/3 0%\s+0-56%/m);
  assert.ok(!result.stdout.includes("\x1b"), "NO_COLOR output has no escape codes");

  assert.deepEqual(await harborLayoutProblems(job), []);
  const trials = await trialDirs(job);
  assert.equal(trials.length, 9);
  // The task given on the command line is named after its folder, as Harbor names a task.
  const taskName = adHocTaskName(repo);
  assert.notEqual(taskName, "task");
  assert.deepEqual(trials.map((t) => t.replace(/__.{7}$/, "")), Array(9).fill(taskName));
  await assertHarborRecords(job, trials);

  // --jobs 2 ran two at once: some agent runs overlap in time.
  const spans = await Promise.all(trials.map(async (t) => {
    const r = JSON.parse(await Deno.readTextFile(join(job, t, "result.json")));
    return [Date.parse(r.agent_execution.started_at), Date.parse(r.agent_execution.finished_at)];
  }));
  assert.ok(spans.some(([s1, e1], i) => spans.some(([s2], j) => i !== j && s2 >= s1 && s2 < e1)));

  // The copies are gone: git knows only the main worktree, and the temp folder is empty.
  assert.equal(await worktrees(repo), 1);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp)), []);

  const lines = (await Deno.readTextFile(predictions)).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 9);
  for (const line of lines) {
    assert.deepEqual(
      Object.keys(line).sort(),
      ["instance_id", "model_name", "model_patch"]
        .map((k) => k === "model_name" ? "model_name_or_path" : k).sort(),
    );
  }
  const patchOf = (harness: string) =>
    lines.filter((l) => l.model_name_or_path === `interpreter__${harness}__fake-model`);
  assert.ok(
    patchOf("native").every((l) => /\+\s+if \(today - previous\)\.days == 1:/.test(l.model_patch)),
  );
  assert.ok(patchOf("minimal").every((l) => l.model_patch === ""));

  const page = await Deno.readTextFile(html);
  for (const t of trials) {
    assert.ok(page.includes(`href="#run-${t}"`) && page.includes(`id="run-${t}"`), t);
  }

  // `eval report` renders the same table from the folder alone.
  const again = await interpreter(["eval", "report", job], { cwd: repo, home });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, result.stdout);
});

Deno.test("Ctrl-C stops eval cleanly and --resume runs only what did not finish", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const tmp = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-tmp-" }));
  const out = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-out-" }));
  // A short run (one command, then the answer) that streams slowly enough to be caught midway:
  // this test is about stopping and resuming, not about the task.
  const script = [
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo fixed > done.txt" } }] } },
    { reply: { text: "Done." } },
  ];
  await using fake = startFakeProvider([], {
    routes: [{ model: "fake-model", tools_include: EVAL_HARNESS_TOOLS.native, script }],
    chunkDelayMs: 30,
  });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const job = join(out, "job");
  const check = "grep -q fixed done.txt";
  const child = new Deno.Command(join(REPO, "scripts", "interpreter"), {
    args: ["eval", "--harness", "native", "--repeat", "3", "--check", check, "--out", job, "go"],
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1", TMPDIR: tmp },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const finished = async () => {
    const names = await trialDirs(job).catch(() => []);
    const done = await Promise.all(names.map((n) =>
      Deno.stat(join(job, n, "result.json")).then(
        () => true,
        () => false,
      )
    ));
    return done.filter(Boolean).length;
  };
  await until("the first run to finish", async () => (await finished()) >= 1, 120_000);
  child.kill("SIGINT");
  const stopped = await child.output();
  const stderr = new TextDecoder().decode(stopped.stderr);
  assert.equal(stopped.code, 130, stderr);
  assert.match(
    stderr,
    /Interrupted: [12] of 3 runs finished\. Continue with: interpreter eval --resume /,
  );
  const kept = await finished();
  assert.equal((await trialDirs(job)).length, kept, "an unfinished trial folder was left");
  assert.equal(await worktrees(repo), 1);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp)), []);

  const resumed = await interpreter(["eval", "--resume", job, "--yes"], {
    cwd: repo,
    home,
    env: { TMPDIR: tmp },
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`${3 - kept} runs? left of 3`));
  const report = await interpreter(["eval", "report", job, "--json", join(out, "r.json")], {
    cwd: repo,
    home,
  });
  const { runs } = JSON.parse(await Deno.readTextFile(join(out, "r.json"))) as { runs: Run[] };
  assert.equal(report.code, 0, report.stderr);
  assert.deepEqual(runs.map((r) => r.attempt).sort(), [1, 2, 3]);
  assert.ok(runs.every((r) => r.passed));
  assert.equal(await worktrees(repo), 1);
});

Deno.test("eval runs a Harbor task folder in the repository in the sandbox: its tests/test.sh writes reward.txt, a planted conftest.py gets nothing", async () => {
  await using dirs = tempDirs();
  const at = await hostRepo(dirs);
  const out = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-out-" }));
  const script = [
    plantConftest(at),
    {
      reply: {
        tool_calls: [{ name: "exec_command", args: { cmd: "printf 'Hello\\n' > hello.txt" } }],
      },
    },
    { reply: { text: "Created hello.txt." } },
  ];
  await using fake = startFakeProvider([], {
    routes: [{ model: "fake-model", tools_include: EVAL_HARNESS_TOOLS.native, script }],
  });
  // The repository is trusted, so each run in a copy of it is too: its project config counts.
  const trusted = `[projects.${
    JSON.stringify(await Deno.realPath(at.repo))
  }]\ntrust_level = "trusted"`;
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat", trusted));
  const job = join(out, "job");
  const tasks = join(REPO, "tests", "fixtures", "harbor_tasks", "hello_pytest");
  const result = await interpreter(
    ["eval", "--harness", "native", "--tasks", tasks, "--out", job],
    { cwd: at.repo, home, env: { MOCK_API_KEY: MOCK_KEY } },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, []);
  const [trial] = await trialDirs(job);
  assert.match(trial, /^hello_pytest__.{7}$/);
  assert.equal(await Deno.readTextFile(join(job, trial, "verifier", "reward.txt")), "1\n");
  assert.match(result.stdout, /native\s+fake-model\s+1\/1 100%/);
  assert.deepEqual(await harborLayoutProblems(job), []);
  const stdout = await Deno.readTextFile(join(job, trial, "verifier", "test-stdout.txt"));
  await assertConftestHeld(stdout, at);
  assert.match(stdout, /PROOF=passed-through/, "[verifier] env reaches the test");
  assert.deepEqual(maxTokensAsked(fake), [
    PROJECT_MAX_TOKENS,
    PROJECT_MAX_TOKENS,
    PROJECT_MAX_TOKENS,
  ]);

  const docker = join(REPO, "tests", "fixtures", "harbor_tasks", "needs_docker");
  const refused = await interpreter(["eval", "--harness", "native", "--tasks", docker], {
    cwd: at.repo,
    home,
  });
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /Dockerfile/);
  assert.match(
    refused.stderr,
    /harbor run -p \S*needs_docker --agent-import-path interpreter_harbor:Interpreter -m fake-model --ak harness=native/,
  );
});

Deno.test("eval --check runs a planted conftest.py in the sandbox, where it gets nothing; SIGHUP then leaves no process, copy or worktree", async () => {
  await using dirs = tempDirs();
  const at = await hostRepo(dirs);
  const tmp = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-tmp-" }));
  const out = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-out-" }));
  // Slow replies, so that the second run is still talking to the model when SIGHUP comes.
  const script = [plantConftest(at), { reply: { text: "Done: the tests pass." } }];
  await using fake = startFakeProvider([], {
    routes: [{ model: "fake-model", tools_include: EVAL_HARNESS_TOOLS.native, script }],
    chunkDelayMs: 30,
  });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const job = join(out, "job");
  // The control: the check passes (a test of the tracker that holds before the fix).
  const check = "python3 -m pytest -q -s -p no:cacheprovider -k 'not boundary'";
  // A task file of the repository's own, whose task takes its check from --check.
  await Deno.writeTextFile(
    join(at.repo, "tasks.toml"),
    '[[task]]\nname = "plant"\nprompt = "go"\n',
  );
  const child = new Deno.Command(join(REPO, "scripts", "interpreter"), {
    args: [
      "eval",
      ...["--harness", "native", "--repeat", "2", "--check", check, "--out", job],
      ...["--tasks", "tasks.toml"],
    ],
    cwd: at.repo,
    env: {
      OPENINTERPRETER_HOME: home,
      FAKE_API_KEY: "k",
      MOCK_API_KEY: MOCK_KEY,
      NO_COLOR: "1",
      TMPDIR: tmp,
      PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Two requests make the first run; the third is the second run's agent at work.
  await until("the second run's first request", () => fake.requests.length >= 3, 120_000);
  const running = await processesMentioning(tmp);
  assert.ok(running.length > 0, "the second run's agent is running in its copy");
  child.kill("SIGHUP");
  const stopped = await child.output();
  const stderr = new TextDecoder().decode(stopped.stderr);
  assert.equal(stopped.code, 129, stderr);
  assert.match(
    stderr,
    /^note: the tasks in ".*tasks\.toml" come from the repository: the commands they name will run \(sandboxed\)$/m,
  );
  assert.match(
    stderr,
    /Interrupted: 1 of 2 runs finished\. Continue with: interpreter eval --resume /,
  );
  await until(
    "every process of the stopped run to end",
    async () => (await processesMentioning(tmp)).length === 0,
    10_000,
  );
  assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp)), [], "a copy was left");
  assert.equal(await worktrees(at.repo), 1);

  const [trial] = await trialDirs(job);
  const record = JSON.parse(await Deno.readTextFile(join(job, trial, "result.json")))
    .agent_result.metadata.interpreter;
  assert.equal(record.passed, true, JSON.stringify(record));
  await assertConftestHeld(
    await Deno.readTextFile(join(job, trial, "verifier", "test-stdout.txt")),
    at,
  );
  // The control of the trusted copy above: an untrusted repository's config does not count.
  assert.ok(maxTokensAsked(fake).every((n) => n !== PROJECT_MAX_TOKENS), stderr);
});

Deno.test("eval --harbor-config prints the Harbor job for the harnesses and models; bad input is refused before any run", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome("http://127.0.0.1:9/v1", "chat"));
  const printed = await interpreter([
    "eval",
    ...["--harbor-config", "--harness", "native,claude-code", "--repeat", "5", "--jobs", "100"],
  ], { cwd: repo, home });
  assert.equal(printed.code, 0, printed.stderr);
  const config = parseYaml(printed.stdout);
  assert.equal(config.n_attempts, 5);
  assert.equal(config.n_concurrent_trials, 100);
  assert.deepEqual(
    config.agents.map((a: { kwargs: { harness: string } }) => a.kwargs.harness),
    ["native", "claude-code"],
  );
  assert.ok(
    config.agents.every((a: Record<string, unknown>) =>
      a.import_path === "interpreter_harbor:Interpreter" && a.model_name === "fake/fake-model"
    ),
  );

  const noCheck = await interpreter(["eval", "--harness", "native", "fix it"], { cwd: repo, home });
  assert.equal(noCheck.code, 2);
  assert.match(
    noCheck.stderr,
    /^error: No check: nothing would tell a pass from a fail\nhint: Add --check/m,
  );
  const typo = await interpreter(["eval", "--harness", "nativ", "--check", "true", "x"], {
    cwd: repo,
    home,
  });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Unknown harness "nativ" in --harness\nhint: Did you mean native/);
});

Deno.test("a run past --timeout is stopped, recorded as a timeout, and its trajectory says so", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const out = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-out-" }));
  const script = [{ reply: { text: "Thinking very slowly about habits and streaks and dates." } }];
  await using fake = startFakeProvider([], {
    routes: [{ model: "fake-model", script }],
    chunkSize: 1,
    chunkDelayMs: 500,
  });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const job = join(out, "job");
  const result = await interpreter(
    // As in Harbor, the check still runs after a timeout: what the agent did by then counts.
    ["eval", "--harness", "native", "--timeout", "2", "--check", "false", "--out", job, "go"],
    { cwd: repo, home },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `FAIL {2}native × fake-model #1 \\(${adHocTaskName(repo)}\\) .*` +
        "\\(timeout: The agent ran past its time limit of 2 s\\)",
    ),
  );
  const [trial] = await trialDirs(job);
  const trialResult = JSON.parse(await Deno.readTextFile(join(job, trial, "result.json")));
  assert.equal(trialResult.exception_info.exception_type, "AgentTimeoutError");
  const record = trialResult.agent_result.metadata.interpreter;
  assert.equal(record.status, "timeout");
  assert.equal(record.passed, false);
  const trajectory = JSON.parse(
    await Deno.readTextFile(join(job, trial, "agent", "trajectory.json")),
  );
  assert.equal(trajectory.notes, "Stopped by SIGTERM");
  assert.deepEqual(await harborLayoutProblems(job), []);
});
