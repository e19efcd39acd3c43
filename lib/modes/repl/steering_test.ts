import assert from "node:assert/strict";
import type { Session } from "../../session/types.ts";
import { until } from "../../../tests/e2e/_poll.ts";
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
  line.keys("see @lib/\t", to, interrupt); // Tab after `@` completes (none here), never queues
  line.keys("a\u2424b\r\r", to, interrupt);
  line.keys("/harness native\r", to, interrupt); // a slash command is the REPL's: it waits
  line.keys("left\x03", to, interrupt);
  assert.deepEqual(sent, [
    "steer use tabs",
    "queue then test",
    "steer see @lib/a\nb",
    "queue /harness native",
  ]);
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
    cwd: ".",
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

Deno.test("what is typed shows under the spinner; stopping the turn brings queued lines back", async () => {
  const pending = Promise.withResolvers<boolean>();
  const session = { steer: () => pending.promise } as unknown as Session;
  const view = {
    transcript: { lines: () => {}, typing: undefined as string | undefined },
    style: { dim: (t: string) => t },
    cwd: ".",
  };
  const steering = new Steering(() => session, () => view);
  let interrupts = 0;
  steering.keys("run tests", () => interrupts++);
  assert.match(view.transcript.typing!, /^› run tests {2}\(Enter: send into this turn/);
  steering.keys("\t", () => interrupts++);
  steering.keys("fix it\r", () => interrupts++);
  assert.equal(view.transcript.typing, "↳ at the next request: fix it");
  steering.keys("half", () => interrupts++);
  steering.keys("\x03", () => interrupts++);
  assert.equal(interrupts, 1);
  pending.resolve(false); // the stopped turn never made another request
  await pending.promise;
  await Promise.resolve();
  assert.equal(steering.next(), undefined, "nothing runs after a stopped turn");
  assert.equal(steering.take(), "fix it run tests half", "all of it waits at the prompt");
  assert.equal(view.transcript.typing, undefined);
});

Deno.test("Tab after `@` during a turn completes the path instead of queueing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi-steer-" });
  try {
    await Deno.mkdir(`${dir}/notes_folder`);
    await Deno.writeTextFile(`${dir}/notes_folder/today.md`, "x");
    const view = {
      transcript: { lines: () => {}, typing: undefined as string | undefined },
      style: { dim: (t: string) => t },
      cwd: dir,
    };
    const steering = new Steering(() => undefined, () => view);
    steering.keys("read @no\t", () => {});
    await until(
      "the completion",
      () => Promise.resolve(/@notes_folder\//.test(view.transcript.typing ?? "")),
      5_000,
    );
    steering.keys("to\t", () => {});
    await until(
      "the file",
      () => Promise.resolve(/today\.md/.test(view.transcript.typing ?? "")),
      5_000,
    );
    assert.equal(steering.next(), undefined, "nothing was queued");
    assert.equal(steering.take(), "read @notes_folder/today.md");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
