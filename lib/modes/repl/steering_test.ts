import assert from "node:assert/strict";
import type { Session } from "../../session/types.ts";
import { BusyLine, Steering } from "./steering.ts";

Deno.test("keys typed during a turn: Enter steers, Tab queues, the rest waits for the prompt", () => {
  const line = new BusyLine();
  const sent: string[] = [];
  let interrupts = 0;
  const to = {
    steer: (t: string) => sent.push(`steer ${t}`),
    queue: (t: string) => sent.push(`queue ${t}`),
  };
  const interrupt = () => interrupts++;
  line.keys("use tabx\x7fs\r", to, interrupt);
  line.keys("\x1b[Athen test\t", to, interrupt);
  line.keys("see @lib/\t", to, interrupt); // Tab after `@` completes at the prompt, never queues
  line.keys("a\u2424b\r\r", to, interrupt);
  line.keys("left\x03", to, interrupt);
  assert.deepEqual(sent, ["steer use tabs", "queue then test", "steer see @lib/a\nb"]);
  assert.equal(interrupts, 1);
  assert.equal(line.take(), "left");
  line.keys("kept\r", undefined, interrupt);
  assert.equal(line.take(), "kept", "without a receiver a line waits for the prompt");
});

Deno.test("a steered line is noted where it lands, or queued when the turn ended first", async () => {
  const notes: string[] = [];
  const answers = [true, false];
  const session = { steer: () => Promise.resolve(answers.shift()!) } as unknown as Session;
  const view = {
    transcript: { lines: (l: string[]) => notes.push(...l) },
    style: { dim: (t: string) => t },
  };
  const steering = new Steering(() => session, () => view);
  steering.steer("first");
  steering.steer("second");
  steering.queue("third");
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(notes, ["↳ steered: first"]);
  assert.deepEqual([steering.next(), steering.next(), steering.next()], [
    "third",
    "second",
    undefined,
  ]);
});
