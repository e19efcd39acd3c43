/**
 * `interpreter eval --harbor-config` through the real CLI: one agent entry per harness × model,
 * each harness named apart, the job folder of `--out`, no key asked for a provider it does not
 * use, a warning for model names Harbor cannot route, and refusals of what a Harbor job cannot
 * carry (an ad-hoc task, --check, a task file).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";

/** No key of any provider: a key asked for would fail the run. */
const NO_KEYS = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };

Deno.test("eval --harbor-config names each harness's agent, writes the --out folder and asks for no key", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome("http://127.0.0.1:9/v1", "chat"));
  const out = join(repo, "harbor-jobs", "ab");
  const printed = await interpreter([
    "eval",
    "--harbor-config",
    ...["--harness", "native,claude-code", "-m", "anthropic/claude-sonnet-4-5"],
    ...["--out", "harbor-jobs/ab"],
  ], { cwd: repo, home, env: NO_KEYS });
  assert.equal(printed.code, 0, printed.stderr);
  assert.doesNotMatch(printed.stderr, /API key|warning/);
  const config = parseYaml(printed.stdout);
  assert.equal(config.jobs_dir, join(repo, "harbor-jobs"));
  assert.equal(config.job_name, "ab");
  assert.deepEqual(
    config.agents.map((a: Record<string, unknown>) => [a.name, a.import_path, a.model_name]),
    [
      ["interpreter-native", "interpreter_harbor:Interpreter", "anthropic/claude-sonnet-4-5"],
      ["interpreter-claude-code", "interpreter_harbor:Interpreter", "anthropic/claude-sonnet-4-5"],
    ],
  );
  assert.match(
    printed.stdout,
    /^# \(integrations\/harbor\/interpreter_harbor\.py\), with ANTHROPIC_API_KEY set:$/m,
  );
  assert.match(printed.stdout, new RegExp(`^# It writes the job to ${out}\\.$`, "m"));
  assert.match(printed.stdout, new RegExp(`^# {3}harbor view ${join(repo, "harbor-jobs")}$`, "m"));
});

Deno.test("eval --harbor-config warns of model names Harbor cannot route, naming the fix", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome("http://127.0.0.1:9/v1", "chat"));
  const printed = await interpreter(
    ["eval", "--harbor-config", "--harness", "native", "-m", "gpt-5,bedrock/claude,openai/gpt-5"],
    { cwd: repo, home, env: NO_KEYS },
  );
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(
    printed.stderr,
    /^warning: Harbor cannot route the model "gpt-5": it names no provider, .*\nhint: Name it as Harbor does, provider\/model: -m openai\/gpt-5 /m,
  );
  assert.match(
    printed.stderr,
    /^warning: Harbor cannot route the model "bedrock\/claude": interpreter has no built-in provider "bedrock"\nhint: Name the model with a built-in provider: openai, anthropic,/m,
  );
  assert.doesNotMatch(printed.stderr, /"openai\/gpt-5"/, "a routable name gets no warning");
  // The configured model of a provider defined only in config.toml: written provider/model, flagged.
  const configured = await interpreter(["eval", "--harbor-config", "--harness", "native"], {
    cwd: repo,
    home,
    env: NO_KEYS,
  });
  assert.equal(configured.code, 0, configured.stderr);
  assert.equal(parseYaml(configured.stdout).agents[0].model_name, "fake/fake-model");
  assert.match(
    configured.stderr,
    /^warning: Harbor cannot route the model "fake\/fake-model": provider "fake" is defined in your config\.toml, which Harbor's containers do not have$/m,
  );
});

Deno.test("eval --harbor-config refuses an ad-hoc task, --check and a task file, saying why", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome("http://127.0.0.1:9/v1", "chat"));
  const cases: Array<[string[], RegExp]> = [
    [
      ["--check", "python3 -m pytest -q", "fix the streak bug"],
      /^error: --harbor-config cannot carry the task given as an argument: Harbor runs only task folders.*\nhint: Make a Harbor task folder .* --tasks DIR/m,
    ],
    [
      ["--check", "python3 -m pytest -q"],
      /^error: --harbor-config cannot carry --check: Harbor's verifier runs each task's tests\/test\.sh\nhint: Put the command in the task's tests\/test\.sh/m,
    ],
    [
      ["--tasks", "tasks.toml"],
      /^error: --harbor-config takes Harbor task folders, and ".*tasks\.toml" is not a folder\nhint: Pass --tasks DIR/m,
    ],
  ];
  await Deno.writeTextFile(join(repo, "tasks.toml"), '[[task]]\nname = "a"\nprompt = "p"\n');
  for (const [args, expected] of cases) {
    const result = await interpreter(["eval", "--harbor-config", ...args], {
      cwd: repo,
      home,
      env: NO_KEYS,
    });
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, expected);
    assert.equal(result.stdout, "", "nothing is printed as a job");
  }
});
