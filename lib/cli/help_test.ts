import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { parseArgs } from "./cli.ts";
import { nearCommand } from "./help.ts";

const COMMANDS = ["exec", "resume", "fork", "debug", "trust-changes", "help"];

Deno.test("nearCommand() finds the command a single word is a typo of, and nothing else", () => {
  assert.equal(nearCommand("exce", COMMANDS), "exec");
  assert.equal(nearCommand("Exec", COMMANDS), "exec");
  assert.equal(nearCommand("resum", COMMANDS), "resume");
  assert.equal(nearCommand("debgu", COMMANDS), "debug");
  for (const prompt of ["hello", "exit", "fix", "ls", "explain this", "exec", "summarize"]) {
    assert.equal(nearCommand(prompt, COMMANDS), undefined, prompt);
  }
});

Deno.test("parseArgs() refuses a mistyped command on a terminal with a did-you-mean", () => {
  assert.throws(() => parseArgs(["exce"], "v", true), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, '"exce" is not a command: did you mean `exec`?');
    assert.equal(error.exitCode, 2);
    return true;
  });
});

Deno.test("parseArgs() sends a real prompt, and any prompt from a pipe, to the REPL", () => {
  const real = parseArgs(["explain this"], "v", true);
  assert.deepEqual(real.mode === "repl" && real.prompt, "explain this");
  assert.equal(parseArgs(["exce"], "v", false).mode, "repl");
});

Deno.test("parseArgs() refuses help for a command that does not exist", () => {
  assert.throws(() => parseArgs(["help", "exec", "nope"], "v", true), {
    name: "UsageError",
    message: 'There is no command "exec nope"',
    hint: 'Run "interpreter help exec" to see the commands',
  });
});
