import assert from "node:assert/strict";
import type { ProgressSink } from "../progress.ts";
import { makeRecord } from "../report/_test_records.ts";
import type { Contestant } from "./plan.ts";
import { ArenaStatus, phaseText } from "./status.ts";

const CONTESTANTS: Contestant[] = [
  { label: "a", harness: "native", model: "fake-model" },
  { label: "b", harness: "minimal", model: "fake-model" },
  { label: "c", harness: "claude-code", model: "fake-model" },
];

const PASSED = makeRecord({ time_sec: { setup: 0, agent: 40, check: 1, total: 42 } });
const FAILED = makeRecord({
  passed: false,
  status: "timeout",
  time_sec: { setup: 0, agent: 37, check: 1, total: 39 },
});

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

/**
 * What a terminal shows after `text`: `\r`, newline, clear line and cursor up are followed,
 * colors dropped; any other escape sequence fails the test.
 */
function screen(text: string): string[] {
  const rows: string[] = [""];
  let row = 0;
  // deno-lint-ignore no-control-regex -- reading the terminal's sequences is the point
  for (const [token] of text.matchAll(/\x1b\[(\d*)([A-Za-z])|\x1b|\r|\n|[^\x1b\r\n]+/g)) {
    // deno-lint-ignore no-control-regex -- as above
    const sequence = token.match(/^\x1b\[(\d*)([A-Za-z])$/);
    if (sequence?.[2] === "A") row = Math.max(0, row - Number(sequence[1] || 1));
    else if (sequence?.[2] === "K") rows[row] = "";
    else if (sequence?.[2] === "J") rows.splice(row, Infinity, "");
    else if (sequence?.[2] === "m") continue;
    else if (token.startsWith("\x1b")) assert.fail(`escape ${JSON.stringify(token)}`);
    else if (token === "\n") rows[++row] ??= "";
    else if (token !== "\r") rows[row] += token;
  }
  return rows.at(-1) === "" ? rows.slice(0, -1) : rows;
}

/** How often `text` has `sequence` in it. */
function count(text: string, sequence: string): number {
  return text.split(sequence).length - 1;
}

Deno.test("ArenaStatus redraws its block in place on a terminal and leaves the final lines", () => {
  const sink = fakeSink(true);
  const status = new ArenaStatus(sink, CONTESTANTS, { color: false, width: 200 });
  try {
    assert.deepEqual(screen(sink.text).map((l) => l.split(/\s+/).at(-1)), [
      "waiting",
      "waiting",
      "waiting",
    ]);
    status.update("a", { kind: "copying" });
    status.update("a", { kind: "running", requests: 3, toolCalls: 5 });
    status.update("a", { kind: "running", requests: 3, toolCalls: 5 });
    status.update("b", { kind: "error", message: "The copy failed:\nno space left" });
    status.update("c", { kind: "checking" });
    status.update("a", { kind: "done", record: PASSED });
    status.update("c", { kind: "done", record: FAILED });
  } finally {
    status.stop();
  }
  // One redraw per change (a repeated count is none) and one at the end, each moving up over
  // the three lines.
  assert.equal(count(sink.text, "\x1b["), 7 + 8 * 3, "moves up and clears, nothing else");
  assert.equal(count(sink.text, "\x1b[3A"), 7);
  assert.deepEqual(screen(sink.text), [
    "a  native x fake-model        passed 0:41",
    "b  minimal x fake-model       error: The copy failed:",
    "c  claude-code x fake-model   failed 0:38 (timeout)",
  ]);
});

Deno.test("ArenaStatus prints a note above its block", () => {
  for (const terminal of [true, false]) {
    const sink = fakeSink(terminal);
    const status = new ArenaStatus(sink, CONTESTANTS.slice(0, 2), { color: false, width: 200 });
    status.update("a", { kind: "copying" });
    status.note("warning: no price for fake-model");
    status.update("b", { kind: "checking" });
    status.stop();
    const shown = terminal ? screen(sink.text) : sink.text.trimEnd().split("\n");
    assert.deepEqual(shown.map((l) => l.replace(/ +/g, " ")), [
      ...terminal ? [] : ["a native x fake-model copying"],
      "warning: no price for fake-model",
      ...terminal ? ["a native x fake-model copying"] : [],
      "b minimal x fake-model checking",
    ]);
  }
});

Deno.test("ArenaStatus shows the running clock and counts", () => {
  const sink = fakeSink(true);
  const status = new ArenaStatus(sink, CONTESTANTS, { color: true, width: 200 });
  try {
    status.update("b", { kind: "running", requests: 1, toolCalls: 0 });
    const line = status.lines(Date.now() + 12_000)[1];
    assert.equal(line, "b  minimal × fake-model       running 0:12 · 1 request · 0 tool calls");
    status.update("b", { kind: "done", record: PASSED });
    assert.match(screen(sink.text)[1], /✓ passed 0:41/);
    assert.ok(sink.text.includes("\x1b[32m"), "a pass is green");
  } finally {
    status.stop();
  }
});

Deno.test("ArenaStatus prints a line per phase change, not per count, off a terminal", () => {
  const sink = fakeSink(false);
  const status = new ArenaStatus(sink, CONTESTANTS, { color: false });
  try {
    assert.equal(sink.text, "");
    status.update("a", { kind: "copying" });
    status.update("a", { kind: "running", requests: 1, toolCalls: 0 });
    status.update("a", { kind: "running", requests: 2, toolCalls: 3 });
    status.update("a", { kind: "running", requests: 4, toolCalls: 6 });
    status.update("a", { kind: "checking" });
    status.update("z", { kind: "checking" });
    status.update("a", { kind: "done", record: PASSED });
  } finally {
    status.stop();
  }
  assert.ok(!sink.text.includes("\x1b"));
  const lines = sink.text.trimEnd().split("\n");
  assert.deepEqual(lines.map((l) => l.replace(/ +/g, " ")), [
    "a native x fake-model copying",
    "a native x fake-model running 0:00 · 1 request · 0 tool calls",
    "a native x fake-model checking",
    "a native x fake-model passed 0:41",
  ]);
});

Deno.test("ArenaStatus says done, not passed, when no check ran", () => {
  const sink = fakeSink(false);
  const status = new ArenaStatus(sink, CONTESTANTS.slice(0, 2), { color: true });
  status.update("a", { kind: "done", record: { ...PASSED, reward: null } });
  status.stop();
  assert.match(sink.text, /^a {2}native × fake-model +done 0:41\n$/);
});

Deno.test("ArenaStatus says done for a run whose reward is unknown (no check ran)", () => {
  const sink = fakeSink(false);
  const status = new ArenaStatus(sink, CONTESTANTS.slice(0, 1), { color: false });
  status.update("a", { kind: "done", record: { ...FAILED, status: "completed", reward: null } });
  status.stop();
  assert.match(sink.text, /^a {2}native x fake-model +done 0:38\n$/);
});

Deno.test("ArenaStatus cuts a long model name so the phase stays in the terminal's width", () => {
  const sink = fakeSink(true);
  const long = [
    { label: "a", harness: "native", model: `model-${"x".repeat(120)}` },
    { label: "b", harness: "minimal", model: "fake-model" },
  ];
  const status = new ArenaStatus(sink, long, { color: false, width: 80 });
  status.update("a", { kind: "running", requests: 2, toolCalls: 2 });
  status.update("b", { kind: "checking" });
  status.stop();
  const [a, b] = screen(sink.text);
  assert.match(a, /^a {2}native x model-x+… {3}running 0:00 · 2 requests · 2 tool calls$/);
  assert.ok([...a].length < 80, a);
  assert.match(b, /^b {2}minimal x fake-model {2,}checking$/);
});

Deno.test("ArenaStatus cuts every line to a narrow terminal's width", () => {
  const sink = fakeSink(true);
  const long = [{ label: "a", harness: "native", model: `model-${"x".repeat(120)}` }];
  const status = new ArenaStatus(sink, long, { color: false, width: 40 });
  status.update("a", { kind: "running", requests: 2, toolCalls: 2 });
  status.stop();
  const [line] = screen(sink.text);
  assert.equal([...line].length, 39);
  assert.ok(line.endsWith("…"));
});

Deno.test("ArenaStatus writes a hostile model name and error as visible text", () => {
  const sink = fakeSink(true);
  const hostile = [{ label: "a", harness: "native", model: "evil\x1b[2J\x1b]0;pwned\x07\rmodel" }];
  const status = new ArenaStatus(sink, hostile, { color: false, width: 200 });
  status.update("a", { kind: "error", message: "boom\x1b[1A\x1b[2K" });
  status.stop();
  // screen() fails on any escape sequence but our own cursor-up and clear-line.
  const [line] = screen(sink.text);
  assert.match(line, /evil\\u\{1b\}\[2J\\u\{1b\}\]0;pwned\\u\{7\}\\u\{d\}model/);
  assert.match(line, /error: boom\\u\{1b\}\[1A\\u\{1b\}\[2K$/);
});

Deno.test("phaseText() names each phase", () => {
  const at = { seconds: 75, color: false };
  assert.equal(phaseText({ kind: "waiting" }, at), "waiting");
  assert.equal(phaseText({ kind: "copying" }, at), "copying");
  assert.equal(phaseText({ kind: "checking" }, at), "checking");
  assert.equal(
    phaseText({ kind: "running", requests: 2, toolCalls: 1 }, at),
    "running 1:15 · 2 requests · 1 tool call",
  );
  assert.equal(
    phaseText({ kind: "done", record: FAILED }, { ...at, color: true }),
    "✗ failed 0:38 (timeout)",
  );
  assert.equal(phaseText({ kind: "done", record: { ...PASSED, reward: null } }, at), "done 0:41");
});
