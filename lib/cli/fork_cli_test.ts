import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { commandOf, parseArgs } from "./cli.ts";

Deno.test("interpreter fork is a REPL resume of a copy: --last, an id, or the picker", async () => {
  const last = await commandOf(parseArgs(["fork", "--last", "-m", "m1"], "v"));
  assert.equal(last.mode, "repl");
  if (last.mode !== "repl") return;
  assert.equal(last.fork, true);
  assert.deepEqual(last.config.resume, { last: true, origin: "repl" });
  assert.equal(last.config.model, "m1");
  assert.equal(last.pick, undefined);
  const byId = await commandOf(parseArgs(["fork", "0190abcd"], "v"));
  assert.deepEqual(byId.mode === "repl" && [byId.fork, byId.config.resume], [true, {
    id: "0190abcd",
  }]);
  const picked = await commandOf(parseArgs(["fork", "--all"], "v"));
  assert.deepEqual(picked.mode === "repl" && [picked.fork, picked.pick], [true, { all: true }]);
  const resumed = await commandOf(parseArgs(["resume", "--last"], "v"));
  assert.equal(resumed.mode === "repl" && resumed.fork, undefined, "resume is no fork");
});

Deno.test("interpreter fork with a bad flag points at its own help", () => {
  assert.throws(() => parseArgs(["fork", "--lats"], "v"), (e: Error) => {
    assert.ok(e instanceof UsageError);
    assert.match(e.hint!, /interpreter fork --help/);
    return true;
  });
});
