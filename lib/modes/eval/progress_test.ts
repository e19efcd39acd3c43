import assert from "node:assert/strict";
import { EvalProgress, type ProgressSink, runLine } from "./progress.ts";
import { makeRecord } from "./report/_test_records.ts";

/** What clears the status line before anything is written over it. */
const CLEAR = "\r\x1b[2K";

/** A sink that keeps what was written. */
function fakeSink(terminal: boolean): ProgressSink & { text: string } {
  const sink = {
    terminal,
    text: "",
    write(text: string) {
      sink.text += text;
    },
  };
  return sink;
}

const PASSED = makeRecord({
  requests: 12,
  time_sec: { setup: 0, agent: 4, check: 0.2, total: 4.2 },
});
const FAILED = makeRecord({
  harness: "minimal",
  attempt: 2,
  passed: false,
  status: "timeout",
  error: "The agent ran past its time limit of 60 s",
  requests: 3,
  failed: { command: 1 },
});

Deno.test("runLine() shows a pass with its steps, failed calls and time", () => {
  assert.equal(
    runLine(PASSED, 3, 27),
    "[3/27] pass  native × gpt-4.1 #1 (task)  12 steps, 0 failed calls, 4.2s",
  );
});

Deno.test("runLine() shows a failed run with its status and error", () => {
  assert.equal(
    runLine(FAILED, 4, 27),
    "[4/27] FAIL  minimal × gpt-4.1 #2 (task)  3 steps, 1 failed call, 4.0s  " +
      "(timeout: The agent ran past its time limit of 60 s)",
  );
  const noError = runLine(makeRecord({ passed: false, status: "failed" }), 1, 1);
  assert.match(noError, /^\[1\/1\] FAIL .* {2}\(failed\)$/);
});

Deno.test("EvalProgress writes only the finished lines when not on a terminal", () => {
  const sink = fakeSink(false);
  const progress = new EvalProgress(sink, 2, []);
  try {
    progress.finished(PASSED);
    progress.note("warning: something");
    progress.finished(FAILED);
  } finally {
    progress.stop();
  }
  assert.equal(
    sink.text,
    `${runLine(PASSED, 1, 2)}\nwarning: something\n${runLine(FAILED, 2, 2)}\n`,
  );
  assert.ok(!sink.text.includes("\r") && !sink.text.includes("\x1b"), JSON.stringify(sink.text));
});

Deno.test("EvalProgress draws a status line on a terminal, with the time left after a finish", () => {
  const sink = fakeSink(true);
  const start = Date.now();
  const progress = new EvalProgress(sink, 3, []);
  try {
    assert.equal(sink.text, `${CLEAR}0/3 done · 0 passed · 0:00 elapsed`);
    assert.equal(progress.statusText(start + 65_000), "0/3 done · 0 passed · 1:05 elapsed");

    sink.text = "";
    progress.finished(PASSED);
    const [line, status] = sink.text.split("\n");
    assert.equal(line, `${CLEAR}${runLine(PASSED, 1, 3)}`);
    assert.ok(status.startsWith(CLEAR), JSON.stringify(status));
    assert.match(
      status.slice(CLEAR.length),
      /^1\/3 done · 1 passed · \d+:\d\d elapsed · ~\d+:\d\d left$/,
    );
    assert.equal(
      progress.statusText(start + 65_000),
      "1/3 done · 1 passed · 1:05 elapsed · ~2:10 left",
    );
  } finally {
    progress.stop();
  }
  assert.ok(sink.text.endsWith(CLEAR), "stop() clears the status line");
});

Deno.test("EvalProgress counts the runs finished before a resume", () => {
  const sink = fakeSink(true);
  const start = Date.now();
  const before = [PASSED, FAILED, makeRecord({ attempt: 3 })];
  const progress = new EvalProgress(sink, 5, before);
  try {
    assert.equal(progress.statusText(start), "3/5 done · 2 passed · 0:00 elapsed");
    progress.finished(FAILED);
    assert.match(sink.text, /\[4\/5\] FAIL /);
    assert.equal(
      progress.statusText(start + 30_000),
      "4/5 done · 2 passed · 0:30 elapsed · ~0:30 left",
    );
    progress.finished(PASSED);
    assert.equal(progress.statusText(start + 30_000), "5/5 done · 3 passed · 0:30 elapsed");
  } finally {
    progress.stop();
  }
});
