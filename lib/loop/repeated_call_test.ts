import assert from "node:assert/strict";
import type { RepeatedCall } from "./events.ts";
import { describeLoop } from "./repeated_call.ts";

const base = { args: undefined, error: "", repeats: 4 };

Deno.test("describeLoop() words a failing call as before, and names its setting", () => {
  const d = describeLoop({
    name: "bash",
    args: { command: "cat x" },
    error: "cat: x: No such file\nmore",
    repeats: 4,
  });
  assert.equal(d.headline, "the same failing call 4 times in a row");
  assert.equal(
    d.message,
    'The model made the same failing call 4 times in a row: bash {"command":"cat x"}',
  );
  assert.equal(d.detail, "It got the same error each time (cat: x: No such file)");
  assert.equal(d.setting, "loop_guard.repeats sets how many repeats are allowed");
});

Deno.test("describeLoop() says what repeated for every other shape, and which key allows more", () => {
  const cases: Array<[RepeatedCall, RegExp, string]> = [
    [
      { ...base, shape: "format_error", name: "format error", error: "Your reply has no block." },
      /^The model wrote 4 replies in a row without a usable command$/,
      "loop_guard.format_errors",
    ],
    [
      { ...base, shape: "cycle", name: "Read → Grep", args: [{ path: "a" }, { q: "b" }] },
      /^The model went through the same 2 calls 4 times over with the same results: Read \{"path":"a"\} → Grep \{"q":"b"\}$/,
      "loop_guard.cycle_repeats",
    ],
    [
      { ...base, shape: "same_read", name: "Read", args: { path: "a" } },
      /^The model made the same read-only call 4 times in a row with the same result: Read/,
      "loop_guard.same_read_repeats",
    ],
    [
      { ...base, shape: "no_progress", name: "bash", args: { command: "ls" }, repeats: 9 },
      /^The model made 9 requests in a row without reading, editing or running anything new \(the last call: bash/,
      "loop_guard.no_progress_steps",
    ],
    [
      { ...base, shape: "repeated_span", name: "reasoning", error: "Wait.", repeats: 2 },
      /^The model repeated the same text over and over in its reasoning: 2 replies were cut off$/,
      "loop_guard.repeated_span_repeats",
    ],
  ];
  for (const [call, message, key] of cases) {
    const d = describeLoop(call);
    assert.match(d.message, message);
    assert.ok(d.setting.startsWith(`${key} `), d.setting);
    assert.doesNotMatch(d.detail, /\.$/, "a hint goes on after the detail");
  }
  assert.equal(
    describeLoop(cases[0][0]).detail,
    "Each time it was told: Your reply has no block",
  );
});
