import assert from "node:assert/strict";
import { autoMethod, noticeBytes, ReplNotifier } from "./notifications.ts";

function notifier(tui: ConstructorParameters<typeof ReplNotifier>[0], plain = false) {
  const out: string[] = [];
  const n = new ReplNotifier(tui, { env: {}, write: (text) => out.push(text), plain });
  return { n, out };
}

Deno.test("autoMethod() picks OSC 9 for terminals known to show it, else BEL", () => {
  assert.equal(autoMethod({ TERM_PROGRAM: "iTerm.app" }), "osc9");
  assert.equal(autoMethod({ TERM_PROGRAM: "WezTerm" }), "osc9");
  assert.equal(autoMethod({ TERM: "xterm-kitty" }), "osc9");
  assert.equal(autoMethod({ KITTY_WINDOW_ID: "1" }), "osc9");
  assert.equal(autoMethod({ WT_SESSION: "x" }), "osc9");
  assert.equal(autoMethod({ TERM_PROGRAM: "ghostty", TMUX: "/tmp/s,1,0" }), "bel");
  assert.equal(autoMethod({ TERM_PROGRAM: "Apple_Terminal" }), "bel");
  assert.equal(autoMethod({}), "bel");
});

Deno.test("noticeBytes() is a BEL, or OSC 9 with the text on one line, short and without controls", () => {
  assert.equal(noticeBytes("bel", "x"), "\x07");
  assert.equal(
    noticeBytes("osc9", "Turn complete:\nall\x1b[31m done"),
    "\x1b]9;Turn complete: all [31m done\x07",
  );
  const long = noticeBytes("osc9", "a".repeat(500));
  assert.equal(long.length, "\x1b]9;".length + 120 + 1);
  assert.equal(noticeBytes("osc9", "\n"), "\x1b]9;interpreter\x07");
});

Deno.test("ReplNotifier sends while focus is unknown or out, not once the terminal reports focus", () => {
  const { n, out } = notifier({ notifications: true, notification_method: "osc9" });
  assert.equal(n.start(), true);
  assert.deepEqual(out.splice(0), ["\x1b[?1004h"]);
  n.send("agent-turn-complete", "Turn complete");
  assert.deepEqual(out.splice(0), ["\x1b]9;Turn complete\x07"]);
  assert.equal(n.strip("ab\x1b[Icd"), "abcd");
  n.send("approval-requested", "Approval requested: ls");
  assert.deepEqual(out.splice(0), [], "focused: nothing sent");
  assert.equal(n.strip("\x1b[O"), "");
  n.send("approval-requested", "Approval requested: ls");
  assert.deepEqual(out.splice(0), ["\x1b]9;Approval requested: ls\x07"]);
  assert.equal(n.strip("\x1b[A plain \x1b[B"), "\x1b[A plain \x1b[B", "other keys pass");
  n.end();
  n.end();
  assert.deepEqual(out.splice(0), ["\x1b[?1004l"]);
});

Deno.test("ReplNotifier sends only the kinds listed, always when asked, BEL only on a plain terminal", () => {
  const listed = notifier({ notifications: ["approval-requested"], notification_method: "bel" });
  listed.n.send("agent-turn-complete", "Turn complete");
  listed.n.send("approval-requested", "Approval requested");
  assert.deepEqual(listed.out, ["\x07"]);
  const always = notifier({ notifications: true, notification_condition: "always" });
  assert.equal(always.n.start(), false, "no focus reports needed");
  always.n.strip("\x1b[I");
  always.n.send("agent-turn-complete", "done");
  assert.deepEqual(always.out, ["\x07"]);
  const plain = notifier({ notifications: true, notification_method: "osc9" }, true);
  assert.equal(plain.n.start(), false);
  plain.n.send("agent-turn-complete", "done");
  assert.deepEqual(plain.out, ["\x07"]);
  const off = notifier({ notifications: false });
  assert.equal(off.n.on, false);
  assert.equal(off.n.start(), false);
  off.n.send("agent-turn-complete", "done");
  assert.deepEqual(off.out, []);
});
