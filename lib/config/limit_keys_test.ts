import assert from "node:assert/strict";
import { mergeLayer, newMergeState } from "./effective.ts";
import { readMaxTurnsAlias } from "./limit_keys.ts";

Deno.test("max_turns is read as max_turn_steps with a warning; max_turn_steps wins when both are set", () => {
  const state = newMergeState();
  mergeLayer(state, { max_turns: 3 }, { kind: "user", file: "/home/config.toml" });
  const warnings: string[] = [];
  readMaxTurnsAlias(state, warnings);
  assert.equal(state.values.max_turn_steps, 3);
  assert.equal(state.values.max_turns, undefined);
  assert.deepEqual(state.origins.get("max_turn_steps"), {
    kind: "user",
    file: "/home/config.toml",
  });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /"max_turns" is read as max_turn_steps.*rename it to max_turn_steps/);

  const both = newMergeState();
  mergeLayer(both, { max_turns: 3, max_turn_steps: 9 }, { kind: "default" });
  readMaxTurnsAlias(both, []);
  assert.equal(both.values.max_turn_steps, 9);
});
