/**
 * `eval report` still reads a job folder written before ATIF v1.7 (tests/fixtures/eval_job_v1_4:
 * a two-run native job as eval wrote it then: ATIF-v1.4 trajectories without `trajectory_id`,
 * `environment.type: "local"`, agent `interpreter-native` at version `unknown`, task `task`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { atifProblems, atifV14Problems } from "../_atif.ts";
import { fakeHome, interpreter, REPO, tempDirs } from "./_harness_env.ts";

const JOB = join(REPO, "tests", "fixtures", "eval_job_v1_4");

Deno.test("eval report reads a v1.4 job folder: its table, runs and transcripts", async () => {
  await using dirs = tempDirs();
  const out = await dirs.add(Deno.makeTempDir({ prefix: "oi-eval-v14-" }));
  // No model is asked: the provider's address is never reached.
  const home = await dirs.add(fakeHome("http://127.0.0.1:9", "chat"));
  const trials = [...Deno.readDirSync(JOB)].filter((e) => e.isDirectory).map((e) => e.name).sort();
  assert.equal(trials.length, 2);
  for (const trial of trials) {
    const doc = JSON.parse(await Deno.readTextFile(join(JOB, trial, "agent", "trajectory.json")));
    assert.deepEqual(atifV14Problems(doc), [], `${trial}: the fixture is ATIF-v1.4`);
    assert.deepEqual(atifProblems(doc), [], `${trial}: Harbor 0.22 still accepts v1.4`);
  }
  const [json, html] = [join(out, "runs.json"), join(out, "report.html")];
  const result = await interpreter(["eval", "report", JOB, "--json", json, "--html", html], {
    cwd: out,
    home,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /native/);
  const { runs } = JSON.parse(await Deno.readTextFile(json)) as {
    runs: Array<{ trial: string; passed: boolean; requests: number }>;
  };
  assert.deepEqual(runs.map((r) => r.trial).sort(), trials);
  assert.ok(runs.every((r) => r.passed && r.requests > 0), JSON.stringify(runs));
  const page = await Deno.readTextFile(html);
  for (const trial of trials) assert.ok(page.includes(trial), `${trial} is on the page`);
  assert.match(page, /fix the failing test/, "the transcripts are read from the v1.4 trajectories");
  assert.doesNotMatch(page, /no trajectory/i);
});
