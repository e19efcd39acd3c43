import assert from "node:assert/strict";
import { join } from "node:path";
import { openEvalGit } from "../../session/eval_sandboxes.ts";
import { copySource } from "./copies.ts";
import type { JobPlan } from "./job_layout.ts";
import { runTrial } from "./trial.ts";
import { need } from "../../../sandbox/_test_requires.ts";

async function git(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** The setup runs only in bubblewrap. */
const BWRAP = await need("bwrap");

Deno.test({
  name: "a run whose setup command fails is recorded as an error with zero counts, and its copy " +
    `is removed${BWRAP.note}`,
  ignore: BWRAP.ignore,
  fn: setupFails,
});

async function setupFails() {
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_trial_" }));
  try {
    const repo = join(root, "repo");
    const jobDir = join(root, "job");
    const copiesDir = join(root, "copies");
    await Deno.mkdir(repo);
    await Deno.mkdir(jobDir);
    await Deno.mkdir(copiesDir);
    await Deno.writeTextFile(join(repo, "a.txt"), "a\n");
    await git(["init", "-q"], repo);
    await git(["add", "."], repo);
    await git(["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "i"], repo);
    const task = { name: "task", prompt: "p", check: "true", setup: "echo broken >&2; exit 3" };
    const plan: JobPlan = {
      id: crypto.randomUUID(),
      name: "job",
      startedAt: new Date().toISOString(),
      tasks: [task],
      harnesses: ["native"],
      models: ["m"],
      pairs: [{ harness: "native", model: "m" }],
      repeat: 1,
      jobs: 1,
      source: repo,
      withChanges: false,
      execFlags: [],
      timeoutSec: 60,
    };
    await using read = await openEvalGit({ env });
    await using write = await openEvalGit({ env, writableRoot: copiesDir });
    const record = await runTrial(
      { name: "task__abcdefg", task, harness: "native", model: "m", attempt: 1 },
      {
        plan,
        jobDir,
        source: await copySource(repo, false, read),
        copiesDir,
        git: write,
        // The agent must never start when the setup failed.
        self: ["/nonexistent/interpreter"],
        execFlags: [],
        timeoutSec: 60,
        keep: false,
        env,
        checkEnv: env,
        signal: new AbortController().signal,
      },
    );
    assert.equal(record.status, "error");
    assert.equal(record.passed, false);
    assert.match(record.error ?? "", /^The setup command exited 3: broken$/);
    assert.equal(record.requests, 0);
    assert.deepEqual(record.failed_tool_calls, {
      arguments: 0,
      unknown_tool: 0,
      format: 0,
      command: 0,
      other: 0,
    });
    const result = JSON.parse(
      await Deno.readTextFile(join(jobDir, "task__abcdefg", "result.json")),
    );
    assert.equal(result.exception_info.exception_type, "NonZeroAgentExitCodeError");
    assert.deepEqual(await Array.fromAsync(Deno.readDir(copiesDir)), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
