import assert from "node:assert/strict";
import { slashCommand } from "./commands.ts";

Deno.test("slashCommand() reads our commands with their argument and passes others through", () => {
  assert.deepEqual(slashCommand("/status"), { name: "status", arg: "" });
  assert.deepEqual(slashCommand("  /review the parser\nchanges "), {
    name: "review",
    arg: "the parser\nchanges",
  });
  assert.equal(slashCommand("/unknown thing"), undefined);
  assert.equal(slashCommand("please /compact"), undefined);
  assert.equal(slashCommand("/compactly"), undefined);
});
