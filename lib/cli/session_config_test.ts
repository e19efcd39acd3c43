import assert from "node:assert/strict";
import { resolve } from "node:path";
import { formatConfigDebug } from "../config/debug.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { loadSessionConfig } from "../session/setup.ts";
import { execFlagsOf } from "../modes/eval/eval_args.ts";
import { commandOf, parseArgs } from "./cli.ts";

/** The command `argv` asks for, run from the process's directory. */
function command(argv: string[]) {
  return commandOf(parseArgs(argv, "test"));
}

Deno.test("flags become typed SessionConfig values, in one place", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_cli_" });
  try {
    const cmd = await command([
      "exec",
      ...["-C", dir, "-m", "o3", "-s", "workspace-write", "-a", "on-request", "-p", "work"],
      ...["--harness", "native", "--add-dir", "rel/dir", "--chat-completions", "--ephemeral"],
      ...["--skip-git-repo-check", "-c", 'model_reasoning_effort="high"', "-c", "a.b=1"],
      ...["--json", "-i", "x.png", "-o", "out.txt", "--output-schema", "s.json", "go"],
    ]);
    assert.equal(cmd.mode, "exec");
    if (cmd.mode !== "exec") return;
    assert.equal(cmd.prompt, "go");
    assert.deepEqual(cmd.config, {
      cwd: dir,
      model: "o3",
      profile: "work",
      sandbox: "workspace-write",
      approval: "on-request",
      harness: "native",
      writableRoots: [resolve("rel/dir")],
      wireApi: "chat",
      overrides: [
        {
          keyPath: ["model_reasoning_effort"],
          value: "high",
          origin: '-c model_reasoning_effort="high"',
          where: '-c override "model_reasoning_effort="high""',
        },
        { keyPath: ["a", "b"], value: 1, origin: "-c a.b=1", where: '-c override "a.b=1"' },
      ],
      ephemeral: true,
      skipGitRepoCheck: true,
      origin: "exec",
    });
    assert.deepEqual(cmd.exec, {
      json: true,
      images: ["x.png"],
      outputSchema: "s.json",
      outputLastMessage: "out.txt",
    });
  } finally {
    await Deno.remove(dir);
  }
});

Deno.test("--yolo is danger-full-access with no approvals, named --yolo, and skips the git check", async () => {
  const cmd = await command(["--yolo"]);
  assert.equal(cmd.mode, "repl");
  if (cmd.mode !== "repl") return;
  assert.equal(cmd.config.sandbox, "danger-full-access");
  assert.equal(cmd.config.approval, "never");
  assert.deepEqual(cmd.config.labels, { sandbox: "--yolo", approval: "--yolo" });
  assert.equal(cmd.config.skipGitRepoCheck, true);
  assert.equal(cmd.config.origin, "repl");
  await assert.rejects(command(["--yolo", "-s", "read-only"]), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.message, 'Cannot combine --yolo with --sandbox "read-only"');
    return true;
  });
  // The same values without the flag keep the git check.
  const plain = await command(["-s", "danger-full-access", "-a", "never"]);
  assert.ok(plain.mode === "repl" && plain.config.skipGitRepoCheck === undefined);
});

Deno.test("--oss and --local-provider choose the local provider", async () => {
  const oss = await command(["--oss"]);
  assert.ok(oss.mode === "repl" && oss.config.oss === true);
  const lm = await command(["--oss", "--local-provider", "lmstudio"]);
  assert.ok(lm.mode === "repl" && lm.config.oss === "lmstudio");
});

Deno.test("a bad -c or -C names the problem", async () => {
  await assert.rejects(command(["-c", "model"]), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /^Invalid -c override "model": expected key=value$/);
    return true;
  });
  await assert.rejects(command(["-C", "/no/such/dir"]), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.exitCode, 2);
    assert.match(error.message, /^Cannot use "\/no\/such\/dir" as the working directory/);
    return true;
  });
});

Deno.test("resume targets: exec resume looks at every origin, interpreter resume at the REPL's", async () => {
  const byId = await command(["exec", "resume", "abcd", "go on"]);
  assert.ok(byId.mode === "exec");
  assert.deepEqual(byId.config.resume, { id: "abcd" });
  const last = await command(["exec", "resume", "--last", "--all", "go on"]);
  assert.ok(last.mode === "exec");
  assert.deepEqual(last.config.resume, { last: true, all: true });
  const repl = await command(["resume", "--last"]);
  assert.ok(repl.mode === "repl");
  assert.deepEqual(repl.config.resume, { last: true, origin: "repl" });
  assert.equal(repl.pick, undefined);
  const picker = await command(["resume", "--all"]);
  assert.ok(picker.mode === "repl");
  assert.equal(picker.config.resume, undefined);
  assert.deepEqual(picker.pick, { all: true });
});

Deno.test("debug config names each value's origin as the flags did: --yolo, --harness, -c", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi_cli_home_" });
  try {
    const cmd = await command([
      "debug",
      "config",
      ...["--yolo", "--harness", "native", "-c", 'model_reasoning_effort="high"'],
    ]);
    assert.ok(cmd.mode === "debug_config");
    const config = await loadSessionConfig(cmd.config, { env: { OPENINTERPRETER_HOME: home } });
    const text = formatConfigDebug(config);
    assert.match(text, /^sandbox_mode = "danger-full-access" +# flag --yolo$/m);
    assert.match(text, /^approval_policy = "never" +# flag --yolo$/m);
    assert.match(text, /^harness = "native" +# flag --harness$/m);
    assert.match(text, /^model_reasoning_effort = "high" +# -c override$/m);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("--dangerously-bypass-definition-trust (and its old name) reaches the session config of every command that opens one", async () => {
  for (const flag of ["--dangerously-bypass-definition-trust", "--dangerously-bypass-hook-trust"]) {
    for (const argv of [[flag], ["exec", flag, "go"], ["resume", "--last", flag], ["acp", flag]]) {
      const cmd = await command(argv);
      assert.ok("config" in cmd, argv.join(" "));
      assert.equal(cmd.config.bypassDefinitionTrust, true, argv.join(" "));
    }
  }
  const plain = await command(["exec", "go"]);
  assert.ok(plain.mode === "exec");
  assert.equal(plain.config.bypassDefinitionTrust, undefined);
});

Deno.test("interpreter trust takes -C and --yes; trust --changes is trust-changes", async () => {
  const here = Deno.cwd();
  assert.deepEqual(await command(["trust"]), { mode: "trust", cwd: here, yes: false });
  assert.deepEqual(await command(["trust", "--yes"]), { mode: "trust", cwd: here, yes: true });
  assert.deepEqual(await command(["trust", "--changes"]), { mode: "trust_changes", cwd: here });
  assert.deepEqual(await command(["trust", "-C", "/"]), { mode: "trust", cwd: "/", yes: false });
});

Deno.test("eval passes either name of the bypass flag on to each run's exec by its new name", () => {
  for (const flag of ["--dangerously-bypass-definition-trust", "--dangerously-bypass-hook-trust"]) {
    const inv = parseArgs(["eval", flag, "task"], "test");
    assert.ok(inv.mode === "eval" && inv.eval.kind === "run");
    assert.ok(execFlagsOf(inv.eval.args.exec).includes("--dangerously-bypass-definition-trust"));
  }
  const plain = parseArgs(["eval", "task"], "test");
  assert.ok(plain.mode === "eval" && plain.eval.kind === "run");
  assert.ok(!execFlagsOf(plain.eval.args.exec).some((f) => f.startsWith("--dangerously")));
});

Deno.test("--plain (the REPL and resume) is the override plain = true, named by its flag", async () => {
  const plain = { keyPath: ["plain"], value: true, origin: "--plain" };
  const given = [["--plain"], ["resume", "--plain", "--last"], ["--plain", "resume", "--last"]];
  for (const argv of [...given, ["--plain", "fork", "--last"]]) {
    const cmd = await command(argv);
    assert.equal(cmd.mode, "repl");
    if (cmd.mode !== "repl") return;
    assert.deepEqual(cmd.config.overrides, [plain], argv.join(" "));
  }
  await assert.rejects(async () => await command(["exec", "--plain", "go"]), UsageError);
});
