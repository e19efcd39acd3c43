import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { commandOf, parseArgs } from "./cli.ts";

Deno.test("--worktree [NAME] reaches the session config of the REPL and of exec", async () => {
  const repl = await commandOf(parseArgs(["--worktree=fix-login", "hello"], "test", false));
  assert.equal(repl.mode, "repl");
  if (repl.mode === "repl") {
    assert.equal(repl.config.worktree, "fix-login");
    assert.equal(repl.prompt, "hello");
  }
  const exec = await commandOf(parseArgs(["exec", "--worktree", "--", "do it"], "test"));
  assert.equal(exec.mode, "exec");
  if (exec.mode === "exec") assert.equal(exec.config.worktree, true);
  const plain = await commandOf(parseArgs(["exec", "do it"], "test"));
  assert.equal(plain.mode, "exec");
  if (plain.mode === "exec") assert.equal(plain.config.worktree, undefined);
  await assert.rejects(
    () => commandOf(parseArgs(["exec", "--worktree=x", "resume", "--last", "go"], "test")),
    (error: unknown) => error instanceof UsageError && /cannot resume one/.test(error.message),
  );
});

Deno.test("worktree list|remove and doctor parse to their commands and open no session", () => {
  assert.deepEqual(parseArgs(["worktree", "list", "--json"], "test"), {
    mode: "worktree",
    worktree: { command: "list", cd: undefined, json: true },
  });
  assert.deepEqual(parseArgs(["worktree", "remove", "fix-login", "--force"], "test"), {
    mode: "worktree",
    worktree: { command: "remove", name: "fix-login", cd: undefined, force: true },
  });
  // `interpreter -C DIR doctor` works too: flags before the command reach it.
  for (const argv of [["doctor", "--json", "-C", "/tmp"], ["-C", "/tmp", "doctor", "--json"]]) {
    const doctor = parseArgs(argv, "test");
    assert.equal(doctor.mode, "doctor");
    if (doctor.mode === "doctor") {
      assert.deepEqual([doctor.options.cd, doctor.options.json], ["/tmp", true]);
    }
  }
  assert.throws(() => parseArgs(["worktree", "remove"], "test"), UsageError);
});
