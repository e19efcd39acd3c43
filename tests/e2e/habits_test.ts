import assert from "node:assert/strict";
import { habitsCase } from "./_habits.ts";

habitsCase("native", "habits_native.jsonl", {
  wires: ["chat", "responses", "messages"],
  check: (stderr) => {
    assert.match(stderr, /exec cat habits\.py/);
    assert.match(stderr, /\+\s+if \(today - previous\)\.days == 1:/);
  },
});
