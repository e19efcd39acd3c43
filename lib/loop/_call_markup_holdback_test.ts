import assert from "node:assert/strict";
import { CallMarkupHoldback } from "./_call_markup_holdback.ts";

/** Feeds `deltas` and returns what was shown along the way. */
function feed(holdback: CallMarkupHoldback, deltas: string[]): string[] {
  return deltas.map((d) => holdback.push(d));
}

Deno.test("CallMarkupHoldback shows plain text at once and holds from a tag split across deltas", () => {
  const h = new CallMarkupHoldback();
  assert.deepEqual(feed(h, ["Let me ", "look.\n<tool_", 'call>{"name"', ': "x"}']), [
    "Let me ",
    "look.\n",
    "",
    "",
  ]);
  assert.equal(h.finish("Let me look."), "", "the call was recovered: nothing more to show");
});

Deno.test("CallMarkupHoldback releases what turned out not to be markup", () => {
  const h = new CallMarkupHoldback();
  const text = "a <b> and [TOOL x] `code` ```python\nprint()\n```";
  assert.deepEqual(feed(h, ["a <b", "> and [TOOL", " x] `code` ```py", "thon\nprint()\n```"]), [
    "a <b",
    "> and ",
    "[TOOL x] `code` ```py",
    "thon\nprint()\n",
  ]);
  assert.equal(h.finish(text), "```", "a fence that could still open on { waits for the end");
  const held = new CallMarkupHoldback();
  feed(held, ['Config:\n```json\n{"a": 1}\n```']);
  assert.equal(held.finish('Config:\n```json\n{"a": 1}\n```'), '```json\n{"a": 1}\n```');
});

Deno.test("CallMarkupHoldback starts over after a discarded attempt", () => {
  const h = new CallMarkupHoldback();
  feed(h, ["one [TOOL_CALLS]"]);
  h.reset();
  assert.equal(h.push("two"), "two");
  assert.equal(h.finish("two"), "");
});

Deno.test("CallMarkupHoldback holds from every dialect's opening token, split across deltas", () => {
  const tokens = [
    "<|channel|>",
    "<|start|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<|python_tag|>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
  ];
  for (const token of tokens) {
    const h = new CallMarkupHoldback();
    const cut = Math.ceil(token.length / 2);
    const shown = feed(h, ["Ok. ", token.slice(0, cut), token.slice(cut), "x", " more"]);
    assert.deepEqual(shown, ["Ok. ", "", "", "", ""], token);
    assert.equal(h.finish("Ok."), "", token);
  }
});

Deno.test("CallMarkupHoldback holds a reply that opens like a call, and only such a reply", () => {
  const call = new CallMarkupHoldback();
  assert.deepEqual(feed(call, ["\n", "{", '\n  "na', 'me": "exec_command"', "}"]), [
    "",
    "",
    "",
    "",
    "",
  ]);
  const harmony = new CallMarkupHoldback();
  assert.deepEqual(feed(harmony, [" t", "o=functions.x", "<|channel|>"]), ["", "", ""]);
  const json = new CallMarkupHoldback();
  assert.deepEqual(feed(json, ["{", '"a": 1}', ' and {"name"']), ["", '{"a": 1}', ' and {"name"']);
  const prose = new CallMarkupHoldback();
  assert.deepEqual(feed(prose, ["t", "oday to=x"]), ["", "today to=x"]);
  assert.equal(prose.finish("today to=x"), "");
});
