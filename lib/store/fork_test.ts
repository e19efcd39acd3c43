import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { SessionError } from "./errors.ts";
import { forkEnd, forkSession, userTurns } from "./fork.ts";
import { readSessionNames, setSessionName } from "./names.ts";
import { readSession } from "./read.ts";
import { checkpointsDir, createSession } from "./store.ts";
import type { SessionRecordInput } from "./records.ts";
import {
  answerEvent,
  callEvent,
  resultEvent,
  tempHome,
  testHeader,
  userEvent,
} from "./_testing.ts";

const CONTEXT: SessionRecordInput = {
  type: "user_message",
  message: { role: "user", blocks: [{ type: "text", text: "<env>", context: true }] },
};

/** A session of three turns, the second with a tool call, and a model switch before the third. */
async function threeTurns(home: string): Promise<{ id: string; file: string }> {
  await using writer = await createSession(home, testHeader({ reasoningEffort: "high" }));
  for (
    const event of [
      CONTEXT,
      userEvent("first"),
      answerEvent("one"),
      userEvent("second"),
      callEvent("c1", "ls"),
      resultEvent("c1", "a.txt"),
      answerEvent("two"),
      { type: "tool_state", state: { version: 1, values: {} } },
      { type: "model_switch", provider: "openai", model: "gpt-5" },
      userEvent("third"),
      answerEvent("three"),
    ] satisfies SessionRecordInput[]
  ) await writer.append(event);
  return { id: writer.id, file: writer.file };
}

Deno.test("forkSession() copies every event under a new id and leaves the original as it was", async () => {
  await using home = await tempHome();
  const original = await threeTurns(home.path);
  const before = await Deno.readFile(original.file);
  const fork = await forkSession(home.path, original.file, { now: () => new Date(2030, 0, 2) });
  assert.notEqual(fork.id, original.id);
  assert.deepEqual(fork.from, original);
  assert.equal(fork.turns, 3);
  assert.deepEqual(await Deno.readFile(original.file), before);
  const [from, to] = [await readSession(original.file), await readSession(fork.file)];
  assert.deepEqual(to.events, from.events, "events and their times are copied as they were");
  assert.deepEqual(to.history, from.history);
  assert.equal(to.header.id, fork.id);
  assert.equal(to.header.created, new Date(2030, 0, 2).toISOString());
  const { id: _a, created: _b, ...rest } = from.header;
  const { id: _c, created: _d, ...copied } = to.header;
  assert.deepEqual(copied, rest);
  assert.match(fork.file, /sessions\/2030\/01\/02\/session-2030-01-02T00-00-00-/);
});

Deno.test("forkSession() gives the fork the original's checkpoint contents", async () => {
  await using home = await tempHome();
  const original = await threeTurns(home.path);
  const blob = join(checkpointsDir(original.file), "blobs", "ab", "abc.gz");
  await Deno.mkdir(dirname(blob), { recursive: true });
  await Deno.writeTextFile(blob, "kept content");
  const fork = await forkSession(home.path, original.file);
  const copied = join(checkpointsDir(fork.file), "blobs", "ab", "abc.gz");
  assert.equal(await Deno.readTextFile(copied), "kept content");
  assert.equal(await Deno.readTextFile(blob), "kept content", "the original keeps its own");
});

Deno.test("forkSession() up to turn N keeps that turn's exchange and what followed it", async () => {
  await using home = await tempHome();
  const original = await threeTurns(home.path);
  const fork = await forkSession(home.path, original.file, { turn: 2 });
  assert.equal(fork.turns, 2);
  const copy = await readSession(fork.file);
  const types = copy.events.map((e) => e.type);
  assert.deepEqual(types.slice(-4), [
    "tool_result",
    "assistant_message",
    "tool_state",
    "model_switch",
  ]);
  assert.equal(copy.history.at(-1)?.role, "assistant");
  assert.match(JSON.stringify(copy.history.at(-1)), /"two"/);
  assert.doesNotMatch(JSON.stringify(copy.events), /third/);
  const first = await forkSession(home.path, original.file, { turn: 1 });
  assert.deepEqual((await readSession(first.file)).events.map((e) => e.type), [
    "user_message",
    "user_message",
    "assistant_message",
  ]);
});

Deno.test("forkSession() refuses a turn the session does not have and writes nothing", async () => {
  await using home = await tempHome();
  const original = await threeTurns(home.path);
  for (const turn of [0, 4, 1.5]) {
    await assert.rejects(forkSession(home.path, original.file, { turn }), (e: Error) => {
      assert.ok(e instanceof SessionError);
      assert.match(e.message, new RegExp(`at turn ${turn}: it has turns 1 to 3`));
      assert.match(e.hint!, /from 1 to 3/);
      return true;
    });
  }
  const files = await Array.fromAsync(Deno.readDir(original.file.replace(/\/[^/]+$/, "")));
  assert.equal(files.length, 1);
});

Deno.test("forkSession() names the fork after a named original", async () => {
  await using home = await tempHome();
  const original = await threeTurns(home.path);
  assert.equal((await forkSession(home.path, original.file)).name, undefined);
  await setSessionName(home.path, original.id, "login bug");
  const fork = await forkSession(home.path, original.file);
  assert.equal(fork.name, "login bug (fork)");
  assert.equal((await readSessionNames(home.path)).get(fork.id), "login bug (fork)");
  assert.equal((await readSessionNames(home.path)).get(original.id), "login bug");
});

Deno.test("userTurns() counts typed prompts, not harness context; forkEnd() with none is all", () => {
  const events = [CONTEXT, userEvent("a"), answerEvent("b"), userEvent("c")].map((e) => ({
    ...e,
    ts: "2025-01-01T00:00:00.000Z",
  })) as Parameters<typeof userTurns>[0];
  assert.deepEqual(userTurns(events), [1, 3]);
  assert.equal(forkEnd(events, undefined), 4);
  assert.equal(forkEnd(events, 1), 3);
  assert.equal(forkEnd(events, 2), 4);
  assert.throws(() => forkEnd(events.slice(0, 1), 1), /it has no prompt yet/);
});
