import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import type { EvalArgs, EvalCommand } from "../modes/eval/eval_args.ts";
import { parseArgs } from "./cli.ts";

function evalCommand(argv: string[]): EvalCommand {
  const invocation = parseArgs(argv, "test", false);
  assert.equal(invocation.mode, "eval");
  return (invocation as Extract<typeof invocation, { mode: "eval" }>).eval;
}

function runArgs(argv: string[]): EvalArgs {
  const command = evalCommand(argv);
  assert.equal(command.kind, "run");
  return (command as Extract<EvalCommand, { kind: "run" }>).args;
}

function throwsUsage(argv: string[], message: RegExp, hint: RegExp): void {
  assert.throws(() => parseArgs(argv, "test", false), (error) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, message);
    assert.match(error.hint ?? "", hint);
    return true;
  });
}

Deno.test("eval parses harnesses, repetitions, jobs, a check and the task into an EvalCommand", () => {
  const command = evalCommand([
    "eval",
    ...["--harness", "a,b", "--repeat", "3", "--jobs", "2", "--check", "npm test"],
    "fix the failing test",
  ]);
  assert.deepEqual(command, {
    kind: "run",
    args: {
      task: "fix the failing test",
      tasks: undefined,
      harness: "a,b",
      model: undefined,
      repeat: 3,
      jobs: 2,
      check: "npm test",
      timeout: 1800,
      out: undefined,
      withChanges: undefined,
      keep: undefined,
      json: undefined,
      html: undefined,
      predictions: undefined,
      resume: undefined,
      yes: undefined,
      harborConfig: undefined,
      exec: {
        config: [],
        profile: undefined,
        sandbox: undefined,
        askForApproval: undefined,
        oss: undefined,
        localProvider: undefined,
        chatCompletions: undefined,
        dangerouslyBypassHookTrust: undefined,
        cd: undefined,
      },
    },
  });
});

Deno.test("eval defaults to 1 repetition, 1 job and a 1800 s time limit", () => {
  const args = runArgs(["eval", "x"]);
  assert.deepEqual([args.repeat, args.jobs, args.timeout], [1, 1, 1800]);
  assert.equal(args.harness, undefined);
  assert.deepEqual(args.exec.config, []);
});

Deno.test("eval refuses a repeat, jobs or timeout that is not a whole number of 1 or more", () => {
  throwsUsage(
    ["eval", "--repeat", "0", "x"],
    /^--repeat takes a whole number of 1 or more, not "0"$/,
    /^For example --repeat 3$/,
  );
  throwsUsage(["eval", "--jobs", "x", "t"], /^--jobs takes .* not "x"$/, /--jobs 3/);
  throwsUsage(["eval", "--jobs", "1.5", "t"], /--jobs/, /--jobs 3/);
  throwsUsage(["eval", "--timeout", "-5", "t"], /--timeout/, /--timeout 3/);
});

Deno.test("eval --resume refuses flags that would change the plan", () => {
  throwsUsage(
    ["eval", "--resume", "/jobs/j", "--harness", "x"],
    /^--resume continues a job as it was planned; it takes no --harness$/,
    /interpreter eval --resume DIR alone/,
  );
  throwsUsage(["eval", "--resume", "/jobs/j", "a task"], /it takes no a task$/, /--resume DIR/);
  const args = runArgs(["eval", "--resume", "/jobs/j", "--yes", "--keep", "--json", "r.json"]);
  assert.equal(args.resume, "/jobs/j");
  assert.deepEqual([args.yes, args.keep, args.json], [true, true, "r.json"]);
});

Deno.test("eval passes -c twice, -a, -s, -p and -C on to every run's exec", () => {
  const args = runArgs([
    "eval",
    ...["-c", "model_reasoning_effort=high", "-c", 'sandbox_mode="read-only"'],
    ...["-a", "on-request", "-s", "workspace-write", "-p", "fast", "-C", "/repo"],
    ...["--oss", "--local-provider", "ollama", "--chat-completions", "task"],
  ]);
  assert.deepEqual(args.exec, {
    config: ["model_reasoning_effort=high", 'sandbox_mode="read-only"'],
    profile: "fast",
    sandbox: "workspace-write",
    askForApproval: "on-request",
    oss: true,
    localProvider: "ollama",
    chatCompletions: true,
    dangerouslyBypassHookTrust: undefined,
    cd: "/repo",
  });
  assert.throws(() => parseArgs(["eval", "-a", "sometimes", "t"], "test", false), UsageError);
});

Deno.test("eval report DIR and eval compare A B parse as their own commands", () => {
  assert.deepEqual(evalCommand(["eval", "report", "/jobs/j", "--html", "page.html"]), {
    kind: "report",
    dir: "/jobs/j",
    html: "page.html",
  });
  assert.deepEqual(
    evalCommand(["eval", "report", "/jobs/j", "--json", "r.json", "--predictions", "p.jsonl"]),
    { kind: "report", dir: "/jobs/j", json: "r.json", predictions: "p.jsonl" },
  );
  assert.deepEqual(evalCommand(["eval", "compare", "/jobs/a", "/jobs/b"]), {
    kind: "compare",
    dirs: ["/jobs/a", "/jobs/b"],
  });
  assert.throws(() => parseArgs(["eval", "compare", "/jobs/a"], "test", false), UsageError);
});
