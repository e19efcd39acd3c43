import assert from "node:assert/strict";
import { until } from "../../../tests/e2e/_poll.ts";
import { LoneEscape, sequenceLength } from "./_lone_escape.ts";

/** What a `LoneEscape` passed on, in order: text as it is, each Esc press as `<Esc>`. */
function splitter(waitMs = 20) {
  const out: string[] = [];
  const escapes = new LoneEscape({
    keys: (text) => out.push(text),
    escape: () => out.push("<Esc>"),
  }, waitMs);
  return { escapes, out };
}

Deno.test("sequenceLength() measures CSI, SS3 and Alt sequences and spots a lone ESC", () => {
  assert.equal(sequenceLength("\x1b[A"), 3);
  assert.equal(sequenceLength("\x1b[1;5Cx"), 6);
  assert.equal(sequenceLength("\x1bOB"), 3);
  assert.equal(sequenceLength("\x1bx"), 2);
  assert.equal(sequenceLength("\x1b\x1b[A"), 0);
  assert.equal(sequenceLength("\x1b"), undefined);
  assert.equal(sequenceLength("\x1b[1;"), undefined);
  assert.equal(sequenceLength("\x1bO"), undefined);
});

Deno.test("LoneEscape passes arrow keys and other sequences on whole, with no Esc", () => {
  const { escapes, out } = splitter();
  escapes.push("a\x1b[Ab\x1bOB\x1b[1;5C");
  assert.deepEqual(out, ["a\x1b[Ab\x1bOB\x1b[1;5C"]);
  assert.equal(escapes.holding, false);
});

Deno.test("LoneEscape joins a sequence split across chunks instead of taking it for Esc", () => {
  const { escapes, out } = splitter(60_000);
  escapes.push("x\x1b");
  assert.equal(escapes.holding, true);
  escapes.push("[D");
  assert.deepEqual(out, ["x", "\x1b[D"]);
  escapes.push("\x1b[");
  escapes.push("B");
  assert.deepEqual(out, ["x", "\x1b[D", "\x1b[B"]);
  escapes.close();
});

Deno.test("LoneEscape reports an ESC that nothing follows as an Esc press, after the wait", async () => {
  const { escapes, out } = splitter();
  escapes.push("\x1b");
  assert.deepEqual(out, [], "not before the wait: an arrow key may still be arriving");
  await until("a key", () => out.length > 0);
  assert.deepEqual(out, ["<Esc>"]);
  assert.equal(escapes.holding, false);
});

Deno.test("LoneEscape takes ESC ESC as an Esc press before what follows", async () => {
  const { escapes, out } = splitter();
  escapes.push("ab\x1b\x1b[A");
  assert.deepEqual(out, ["ab", "<Esc>", "\x1b[A"]);
  escapes.push("\x1b\x1b");
  await until("five keys", () => out.length === 5);
  assert.deepEqual(out.slice(3), ["<Esc>", "<Esc>"]);
});

Deno.test("LoneEscape lets an unfinished sequence out as keys when the wait ends", async () => {
  const { escapes, out } = splitter();
  escapes.push("\x1b[1;");
  await until("a key", () => out.length > 0);
  assert.deepEqual(out, ["\x1b[1;"]);
});
