import assert from "node:assert/strict";
import { terminalSafe, terminalText, visible } from "./visible.ts";

Deno.test("visible() writes ESC, BEL, C1 controls, DEL and bidi overrides as escapes", () => {
  assert.equal(
    visible("a\x1b]52;c;eA==\x07b\x9b2J\x7f\u202eZ\u2066\r\n"),
    "a\\u{1b}]52;c;eA==\\u{7}b\\u{9b}2J\\u{7f}\\u{202e}Z\\u{2066}\\u{d}\n",
  );
});

Deno.test("visible() keeps newlines, tabs and printable text, and changes nothing twice", () => {
  const text = "ok\tdone\nü → ✓ 日本\n";
  assert.equal(visible(text), text);
  const once = visible("\x1b[2J\x00");
  assert.equal(visible(once), once);
});

Deno.test("terminalText() turns Windows line ends into newlines but shows a lone carriage return", () => {
  assert.equal(terminalText("one\r\ntwo\rthree\n"), "one\ntwo\\u{d}three\n");
});

Deno.test("terminalSafe() makes every string inside arrays and plain objects visible", () => {
  const when = new Date(0);
  const value = {
    name: "m\x1b]0;t\x07",
    count: 3,
    when,
    list: [{ id: "x\x1b[1A" }, { id: "plain" }],
  };
  const safe = terminalSafe(value);
  assert.deepEqual(safe, {
    name: "m\\u{1b}]0;t\\u{7}",
    count: 3,
    when,
    list: [{ id: "x\\u{1b}[1A" }, { id: "plain" }],
  });
  assert.equal(safe.when, when, "a Date is kept as it is");
  assert.equal(safe.list[1], value.list[1], "what needs no change is shared");
  assert.equal(value.name, "m\x1b]0;t\x07", "the original is left alone");
  const clean = { a: ["b", { c: "d" }] };
  assert.equal(terminalSafe(clean), clean);
});
