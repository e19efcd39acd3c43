import assert from "node:assert/strict";
import type { ToolProgress } from "../tools/types.ts";
import {
  PROGRESS_CAPPED_NOTE,
  type ProgressClock,
  type ProgressLimits,
  ProgressThrottle,
} from "./_progress.ts";

/** A clock the test moves itself, its timers fired by `advance`. */
function manualClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: ProgressClock = {
    now: () => now,
    setTimer: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: (id) => void timers.delete(id as unknown as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.fn();
    }
  };
  return { clock, advance, pending: () => timers.size };
}

const LIMITS: ProgressLimits = { intervalMs: 250, eventChars: 100, callChars: 1000 };

function throttle(limits = LIMITS) {
  const sent: ToolProgress[] = [];
  const { clock, advance, pending } = manualClock();
  const t = new ProgressThrottle((chunk) => sent.push(chunk), { limits, clock });
  return { t, sent, advance, pending };
}

Deno.test("ProgressThrottle passes the first chunk on at once", () => {
  const { t, sent } = throttle();
  t.push({ stream: "stdout", text: "building\n" });
  assert.deepEqual(sent, [{ stream: "stdout", text: "building\n" }]);
});

Deno.test("ProgressThrottle sends at most one event per interval, gathering what came", () => {
  const { t, sent, advance } = throttle();
  t.push({ stream: "stdout", text: "1\n" });
  for (let i = 2; i <= 30; i++) t.push({ stream: "stdout", text: `${i}\n` });
  assert.equal(sent.length, 1, "nothing more within the interval");
  advance(249);
  assert.equal(sent.length, 1);
  advance(1);
  assert.equal(sent.length, 2);
  assert.equal(sent[1].text, Array.from({ length: 29 }, (_, i) => `${i + 2}\n`).join(""));
  advance(1000);
  assert.equal(sent.length, 2, "no empty events while nothing comes");
});

Deno.test("ProgressThrottle keeps its rate over a steady flood: four events a second", () => {
  const { t, sent, advance } = throttle({ ...LIMITS, eventChars: 10_000, callChars: 1e9 });
  for (let ms = 0; ms < 1000; ms += 10) {
    t.push({ stream: "stdout", text: "x" });
    advance(10);
  }
  assert.ok(sent.length <= 5, `${sent.length} events in one second`);
  t.close();
  assert.equal(sent.map((c) => c.text).join("").length, 100, "nothing lost under the cap");
});

Deno.test("ProgressThrottle sends one stream per event, in the order they came", () => {
  const { t, sent, advance } = throttle();
  t.push({ stream: "stdout", text: "a" });
  t.push({ stream: "stderr", text: "warn" });
  t.push({ stream: "stdout", text: "b" });
  advance(250);
  advance(250);
  assert.deepEqual(sent, [
    { stream: "stdout", text: "a" },
    { stream: "stderr", text: "warn" },
    { stream: "stdout", text: "b" },
  ]);
});

Deno.test("ProgressThrottle keeps whole last lines of an event past eventChars, and says so", () => {
  const { t, sent, advance } = throttle();
  t.push({ stream: "stdout", text: "first" });
  t.push({ stream: "stdout", text: Array.from({ length: 40 }, (_, i) => `l${i}\n`).join("") });
  advance(250);
  const [note, ...lines] = sent[1].text.split("\n");
  assert.match(note, /^\[… \d+ characters not shown …\]$/);
  assert.deepEqual(lines.slice(0, 2), ["l15", "l16"], "it starts at a line");
  assert.equal(lines.at(-2), "l39");
});

Deno.test("ProgressThrottle keeps the end of one long line past eventChars, saying what it left out", () => {
  const { t, sent, advance } = throttle();
  t.push({ stream: "stdout", text: "first" });
  t.push({ stream: "stdout", text: "y".repeat(150) + "END" });
  advance(250);
  assert.equal(sent[1].text, `[… 53 characters not shown …]\n${"y".repeat(97)}END`);
});

Deno.test("ProgressThrottle stops at callChars with one note, and sends nothing after", () => {
  const { t, sent, advance } = throttle();
  for (let i = 0; i < 30; i++) {
    t.push({ stream: "stdout", text: "z".repeat(100) });
    advance(250);
  }
  const text = sent.filter((c) => c.text !== PROGRESS_CAPPED_NOTE).map((c) => c.text).join("");
  assert.equal(text.length, 1000, "exactly the cap");
  assert.deepEqual(sent.at(-1), { stream: "status", text: PROGRESS_CAPPED_NOTE });
  assert.equal(sent.filter((c) => c.text === PROGRESS_CAPPED_NOTE).length, 1);
});

Deno.test("ProgressThrottle.close() sends what waits and ignores later chunks", () => {
  const { t, sent, pending } = throttle();
  t.push({ stream: "stdout", text: "a" });
  t.push({ stream: "stdout", text: "b" });
  assert.equal(pending(), 1, "a timer waits for the interval");
  t.close();
  assert.equal(pending(), 0, "no timer left behind");
  t.push({ stream: "stdout", text: "late" });
  assert.deepEqual(sent.map((c) => c.text), ["a", "b"]);
});
