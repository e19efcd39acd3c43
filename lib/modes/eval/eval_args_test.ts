import assert from "node:assert/strict";
import { parseArgs } from "../../cli/cli.ts";
import { type EvalCommand, execFlagsOf } from "./eval_args.ts";

Deno.test("eval passes --max-turns and --max-budget-usd on to each run's exec", () => {
  const invocation = parseArgs(
    ["eval", "--max-turns", "30", "--max-budget-usd", "2.5", "fix the test"],
    "test",
    false,
  );
  assert.equal(invocation.mode, "eval");
  const command = (invocation as { eval: EvalCommand }).eval;
  assert.equal(command.kind, "run");
  const { exec } = (command as Extract<EvalCommand, { kind: "run" }>).args;
  const flags = execFlagsOf(exec);
  assert.deepEqual(flags.slice(flags.indexOf("--max-turns"), flags.indexOf("--max-turns") + 2), [
    "--max-turns",
    "30",
  ]);
  assert.deepEqual(flags.slice(flags.indexOf("--max-budget-usd")), ["--max-budget-usd", "2.5"]);
  assert.ok(!execFlagsOf({ config: [] }).includes("--max-turns"), "none unless given");
});
