import assert from "node:assert/strict";
import { habitsCase } from "./_habits.ts";

habitsCase("native", "habits_native.jsonl", {
  wires: ["chat", "responses", "messages"],
  check: (stderr) => {
    assert.match(stderr, /exec cat habits\.py/);
    assert.match(stderr, /\+\s+if \(today - previous\)\.days == 1:/);
  },
});

// Codex-tuned models often patch through the shell; the native harness routes that to the patcher.
habitsCase("native", "habits_native_heredoc.jsonl", { wires: ["responses"] });
