import assert from "node:assert/strict";
import { assertGolden, makeRecord, makeRuns, realisticRecords } from "./_test_records.ts";
import { renderReport } from "./terminal.ts";
import { colorWanted } from "../../term/style.ts";

// deno-lint-ignore no-control-regex -- the check is for escape sequences
const NOT_PLAIN = /[\x1b\u0080-\u{10ffff}]/u;

Deno.test("renderReport() plain matches tests/golden/eval/report.txt", async () => {
  await assertGolden("report.txt", renderReport(realisticRecords(), { color: false }));
});

Deno.test("renderReport() with color matches tests/golden/eval/report.color.txt", async () => {
  await assertGolden("report.color.txt", renderReport(realisticRecords(), { color: true }));
});

Deno.test("renderReport() plain has no escape sequence and no character outside ASCII", () => {
  const text = renderReport(realisticRecords(), { color: false });
  assert.ok(!text.includes("\x1b"));
  assert.ok(!NOT_PLAIN.test(text), `non-ASCII at: ${text.match(NOT_PLAIN)?.index}`);
  assert.match(text, /^=\s+native\s+gpt-4\.1\s+3\/3 100%\s+44-100%/m, "a tie is marked =");
  assert.match(text, /^=\s+claude-code\s+gpt-4\.1\s+3\/3 100%/m, "on every tied row");
  assert.match(text, /^= tie for best at 100%: native x gpt-4\.1, claude-code x gpt-4\.1 /m);
  assert.match(text, /native x gpt-4\.1\s+#{40} 100%/);
  assert.match(text, /minimal x gpt-4\.1\s+\.{40}\s+0%/);
  assert.match(text, /minimal x gpt-4\.1: 3 loop-guard stops/);
  assert.match(text, /No difference is larger than the noise/);
});

Deno.test("renderReport() stars a best row that is not tied, with no tie note", () => {
  const text = renderReport([
    ...makeRuns("strong", 3, () => ({})),
    ...makeRuns("weak", 3, (i) => ({ passed: i === 1 })),
  ], { color: false });
  assert.match(text, /^\*\s+strong\s/m);
  assert.match(text, /^ {3}weak\s/m);
  assert.doesNotMatch(text, /tie/);
});

Deno.test("renderReport() says nothing of intervals overlapping when no row has one", () => {
  const text = renderReport([
    ...makeRuns("a", 2, () => ({})),
    ...makeRuns("b", 2, () => ({ passed: false })),
  ], { color: false });
  assert.doesNotMatch(text, /intervals overlap|have none/);
  assert.match(text, /^No row has the 3 runs an interval needs, .*--repeat 3 or more\.$/m);
  const mixed = renderReport([
    ...makeRuns("a", 3, () => ({})),
    ...makeRuns("b", 2, () => ({})),
  ], { color: false });
  assert.match(mixed, /the 95% intervals overlap \(rows under 3 runs have none\)\./);
});

Deno.test("renderReport() with color draws block bars and marks the best rows", () => {
  const text = renderReport(realisticRecords(), { color: true });
  assert.ok(text.includes("\x1b["));
  assert.ok(text.includes(`native × gpt-4.1       \x1b[32m${"█".repeat(40)}\x1b[0m 100%`));
  assert.ok(text.includes(`minimal × gpt-4.1      \x1b[2m${"░".repeat(40)}\x1b[0m   0%`));
  assert.ok(text.includes("=  native"), "the tied rows carry = even in color");
});

Deno.test("renderReport() fits the bars to the width, within bounds", () => {
  const bar = (width: number) =>
    renderReport(realisticRecords(), { color: false, width }).match(/#+ 100%/)![0].length - 5;
  assert.equal(bar(60), 60 - "claude-code x gpt-4.1".length - 9);
  assert.equal(bar(20), 10);
  assert.equal(bar(300), 40);
});

Deno.test("renderReport() names differences larger than the noise", () => {
  const text = renderReport([
    ...makeRuns("weak", 10, () => ({ passed: false })),
    ...makeRuns("strong", 10, () => ({})),
  ], { color: false });
  assert.match(
    text,
    /^strong x gpt-4\.1 is better than weak x gpt-4\.1 \(intervals do not overlap\)$/m,
  );
  assert.doesNotMatch(text, /noise/);
});

Deno.test("renderReport() shows missing interval and cost as a dash, and no verdict for one row", () => {
  const text = renderReport([makeRecord({ cost_usd: null })], { color: false });
  assert.match(text, /1\/1 100%\s+-\s+1\s+0%\s+1\.1k\s+-\s+4\.0s/);
  assert.doesNotMatch(text, /noise|better/);
  const colored = renderReport([makeRecord({ cost_usd: null })], { color: true });
  assert.match(colored, /1\/1 100%\s+—/);
});

Deno.test("renderReport() makes control characters in names visible", () => {
  const text = renderReport([makeRecord({ harness: "evil\x1b[2J", task: "t\x1b]0;x\x07" })], {
    color: false,
  });
  assert.ok(!text.includes("\x1b"));
  assert.ok(text.includes("evil\\u{1b}[2J"));
});

Deno.test("renderReport() says so when there is nothing to report", () => {
  assert.equal(renderReport([], { color: false }), "No runs to report.\n");
});

Deno.test("colorWanted() is false under NO_COLOR, TERM=dumb, or off a terminal", () => {
  assert.equal(colorWanted({ TERM: "xterm-256color" }, true), true);
  assert.equal(colorWanted({ TERM: "xterm-256color", NO_COLOR: "1" }, true), false);
  assert.equal(colorWanted({ TERM: "dumb" }, true), false);
  assert.equal(colorWanted({}, false), false);
});
