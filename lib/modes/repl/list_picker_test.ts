import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import {
  applyKey,
  filterItems,
  parseKeys,
  type PickerItem,
  pickerLines,
  pickFromList,
  type RawTerminal,
} from "./list_picker.ts";

const style = makeStyle(false);
const items: PickerItem<string>[] = ["alpha", "beta", "gamma", "delta", "epsilon"].map((name) => ({
  label: name,
  value: name.toUpperCase(),
}));

/** A terminal that gives `chunks` one read at a time and keeps what was written. */
function scripted(chunks: string[]): RawTerminal & { written: () => string } {
  let written = "";
  return {
    read: () => Promise.resolve(chunks.shift() ?? null),
    write: (text) => written += text,
    columns: () => 40,
    rows: () => 9,
    written: () => written,
  };
}

Deno.test("parseKeys() tells arrows, Enter, a lone Esc and typed text apart", () => {
  assert.deepEqual(parseKeys("\x1b[A\x1bOBab\r"), [
    { kind: "up" },
    { kind: "down" },
    { kind: "text", text: "ab" },
    { kind: "enter" },
  ]);
  assert.deepEqual(parseKeys("\x1b"), [{ kind: "cancel" }]);
  assert.deepEqual(parseKeys("\x03"), [{ kind: "cancel" }]);
  assert.deepEqual(parseKeys("\x1bx\x1b[1;5C\x7f"), [{ kind: "backspace" }], "Alt-x, Ctrl-Right");
  assert.deepEqual(parseKeys("\x1b[200~gpt\x1b[201~"), [{ kind: "text", text: "gpt" }]);
});

Deno.test("filterItems() keeps the items that contain every typed word", () => {
  const models = [
    { label: "openai/gpt-4.1", keywords: "openai/gpt-4.1 GPT-4.1", value: 1 },
    { label: "openai/gpt-4.1-mini", keywords: "openai/gpt-4.1-mini GPT-4.1 mini", value: 2 },
    { label: "deepseek/deepseek-chat", value: 3 },
  ];
  assert.deepEqual(filterItems(models, "GPT mini").map((m) => m.value), [2]);
  assert.deepEqual(filterItems(models, "").map((m) => m.value), [1, 2, 3]);
});

Deno.test("applyKey() moves within the list, scrolls, and keeps the marked row while filtering", () => {
  const list = { items, visible: 2 };
  let state = { filter: "", selected: 0, top: 0 };
  state = applyKey(state, { kind: "up" }, list);
  assert.deepEqual(state, { filter: "", selected: 0, top: 0 }, "stops at the top");
  state = applyKey(applyKey(state, { kind: "down" }, list), { kind: "down" }, list);
  assert.deepEqual(state, { filter: "", selected: 2, top: 1 }, "scrolled to keep gamma in view");
  state = applyKey(state, { kind: "text", text: "a" }, list);
  assert.equal(filterItems(items, state.filter)[state.selected].label, "gamma");
  state = applyKey(state, { kind: "text", text: "l" }, list);
  assert.equal(filterItems(items, state.filter)[state.selected].label, "alpha", "gamma is gone");
  state = applyKey(state, { kind: "backspace" }, list);
  assert.equal(filterItems(items, state.filter)[state.selected].label, "alpha", "still marked");
  state = applyKey(state, { kind: "page_down" }, list);
  assert.equal(filterItems(items, state.filter)[state.selected].label, "gamma");
});

Deno.test("pickerLines() marks the row and says how many are below", () => {
  const lines = pickerLines({ filter: "", selected: 1, top: 0 }, {
    title: "Pick",
    items,
    visible: 3,
    style,
  });
  assert.deepEqual(lines.slice(1), [
    "filter: ",
    "  alpha",
    "› beta",
    "  gamma",
    "  … 2 more",
  ]);
  const none = pickerLines({ filter: "zz", selected: 0, top: 0 }, {
    title: "Pick",
    items,
    visible: 3,
    style,
  });
  assert.match(none.at(-1)!, /nothing matches/);
});

Deno.test("pickFromList() returns the row chosen with arrows or by typing, undefined on Esc", async () => {
  assert.equal(
    await pickFromList(scripted(["\x1b[B", "\x1b[B\r"]), { title: "Pick", items, style }),
    "GAMMA",
  );
  assert.equal(
    await pickFromList(scripted(["eps", "\r"]), { title: "Pick", items, style, initial: 1 }),
    "EPSILON",
  );
  const cancelled = scripted(["\x1b[B", "\x1b"]);
  assert.equal(await pickFromList(cancelled, { title: "Pick", items, style }), undefined);
  assert.ok(cancelled.written().endsWith("\x1b[J\x1b[?25h"), "erased, the cursor shown again");
  assert.equal(await pickFromList(scripted([]), { title: "Pick", items, style }), undefined);
  const narrow = scripted(["\r"]);
  await pickFromList(narrow, {
    title: "A title far longer than the terminal is wide",
    items,
    style,
  });
  assert.match(narrow.written(), /A title far longer than the terminal i…\n/);
});
