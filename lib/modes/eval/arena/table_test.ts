import assert from "node:assert/strict";
import { makeRecord } from "../report/_test_records.ts";
import type { Contestant } from "./plan.ts";
import { renderArenaTable } from "./table.ts";

const ROWS: Array<{ contestant: Contestant; record: ReturnType<typeof makeRecord> }> = [
  {
    contestant: { label: "a", harness: "native", model: "fake-model" },
    record: makeRecord({
      requests: 6,
      tokens: { input: 11_800, output: 500, cached: 9000 },
      cost_usd: 0.0123,
      time_sec: { setup: 0.5, agent: 40.2, check: 1.1, total: 42 },
      diff: { files: 2, added: 12, deleted: 3 },
    }),
  },
  {
    contestant: { label: "b", harness: "minimal", model: "fake-model" },
    record: makeRecord({
      harness: "minimal",
      passed: false,
      status: "step_limit",
      requests: 30,
      failed: { format: 2, command: 3 },
      tokens: { input: 800, output: 90, cached: 0 },
      cost_usd: null,
      time_sec: { setup: 0.5, agent: 125, check: 0.4, total: 126 },
      diff: null,
    }),
  },
  {
    contestant: { label: "c", harness: "claude-code", model: "fake-model" },
    record: makeRecord({
      harness: "claude-code",
      passed: false,
      error: "The check timed out after 600 s\nand more",
      requests: 4,
      failed: { arguments: 1 },
      diff: { files: 0, added: 0, deleted: 0 },
    }),
  },
];

/** The table's rows split into cells on runs of two or more spaces. */
function cells(table: string): string[][] {
  return table.trimEnd().split("\n").map((line) => line.trim().split(/ {2,}/));
}

Deno.test("renderArenaTable() shows every contestant with its numbers", () => {
  const table = renderArenaTable(ROWS, { color: false, picked: "a" });
  const [header, rule, ...rows] = cells(table);
  assert.deepEqual(header, [
    "harness",
    "model",
    "check",
    "files",
    "diff",
    "requests",
    "failed calls",
    "tokens",
    "cost",
    "time",
    "note",
  ]);
  assert.match(rule.join(" "), /^[- ]+$/);
  assert.deepEqual(rows, [
    ["*", "a", "native", "fake-model", "pass", "2", "+12 -3", "6", "0", "12k", "$0.0123", "0:41"],
    ["b", "minimal", "fake-model", "fail", "-", "-", "30", "5", "890", "-", "2:05", "step_limit"],
    [
      "c",
      "claude-code",
      "fake-model",
      "fail",
      "0",
      "+0 -0",
      "4",
      "1",
      "1.1k",
      "$0.0010",
      "0:04",
      "The check timed out after 600 s",
    ],
  ]);
});

Deno.test("renderArenaTable() without color is plain ASCII with no escape sequences", () => {
  const table = renderArenaTable(ROWS, { color: false, picked: "b" });
  assert.match(table, /^[\x20-\x7e\n]*$/);
  assert.match(table, /^\* +b +minimal/m);
  assert.equal(table.match(/^\*/gm)?.length, 1, "one row is marked");
});

Deno.test("renderArenaTable() with color marks the picked row and styles it", () => {
  const table = renderArenaTable(ROWS, { color: true, picked: "c" });
  assert.match(table, /→ +c +claude-code/);
  assert.ok(table.includes("\x1b[1m→"));
  assert.match(table, /\+12 −3/);
  assert.match(table, /─/);
});

Deno.test("renderArenaTable() shows no verdict when no check ran or the reward is unknown", () => {
  const unchecked = { ...ROWS[0], record: { ...ROWS[0].record, reward: null } };
  const [, , ...rows] = cells(renderArenaTable([unchecked], { color: false }));
  assert.equal(rows[0][3], "-");
  assert.equal(rows[0][0], "a", "nothing picked: no mark");
  const unknown = { ...ROWS[1], record: { ...ROWS[1].record, reward: null } };
  const [, , failed] = cells(renderArenaTable([unknown], { color: false }));
  assert.deepEqual(failed.slice(0, 4), ["b", "minimal", "fake-model", "-"]);
});

Deno.test("renderArenaTable() writes hostile names and errors as visible text", () => {
  const hostile = [{
    contestant: { label: "a", harness: "native", model: "evil\x1b[2J\x1b]0;x\x07" },
    record: makeRecord({ passed: false, error: "bad\x1b[31m\rthing" }),
  }];
  for (const color of [false, true]) {
    const table = renderArenaTable(hostile, { color });
    // deno-lint-ignore no-control-regex -- no control character but our own styling
    assert.doesNotMatch(table.replace(/\x1b\[[0-9;]*m/g, ""), /[\x00-\x09\x0b-\x1f\x7f]/);
    assert.match(table, /evil\\u\{1b\}\[2J\\u\{1b\}\]0;x\\u\{7\}/);
    assert.match(table, /bad\\u\{1b\}\[31m\\u\{d\}thing/);
  }
});

Deno.test("renderArenaTable() with no rows says so", () => {
  assert.equal(renderArenaTable([], { color: false }), "No contestant finished.\n");
});
