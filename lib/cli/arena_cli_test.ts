import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { parseArenaArgs } from "./arena_cli.ts";

const refusal = (pattern: RegExp) => (e: unknown) =>
  e instanceof UsageError && e.exitCode === 2 && pattern.test(`${e.message}\n${e.hint}`);

Deno.test("arena's flags become ArenaArgs, the prompt anywhere among them", () => {
  const args = parseArenaArgs([
    "--harness",
    "native,minimal",
    "fix it",
    "-m",
    "a,b",
    "--check",
    "npm test",
    "--pick",
    "2",
    "-y",
    "-c",
    "x=1",
    "--handoff",
    "/tmp/h.json",
  ]);
  assert.deepEqual(args, {
    prompt: "fix it",
    harness: "native,minimal",
    model: "a,b",
    check: "npm test",
    pick: { kind: "one", which: "2" },
    yes: true,
    timeout: 1800,
    out: undefined,
    handoff: "/tmp/h.json",
    exec: { config: ["x=1"], profile: undefined, sandbox: undefined, cd: undefined },
  });
});

Deno.test("arena refuses --pick best without --check, naming why and the fix", () => {
  assert.throws(
    () => parseArenaArgs(["--pick", "best", "fix it"]),
    refusal(/needs --check[\s\S]*Add --check "CMD"/),
  );
  assert.equal(parseArenaArgs(["--pick", "best", "--check", "true", "p"])?.pick?.kind, "best");
});

Deno.test("arena refuses a bad --pick, a bad --timeout, a missing prompt and an unknown flag", () => {
  assert.throws(() => parseArenaArgs(["--pick", "first", "p"]), refusal(/best, none, a letter/));
  assert.throws(() => parseArenaArgs(["--timeout", "0", "p"]), refusal(/--timeout takes/));
  assert.throws(() => parseArenaArgs(["--harness", "native"]), refusal(/No prompt/));
  assert.throws(() => parseArenaArgs(["--jobs", "2", "p"]), refusal(/unknown option/i));
});
