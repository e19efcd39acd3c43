import assert from "node:assert/strict";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { readSession, userTurns } from "../store/mod.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionConfig } from "./open.ts";

const signal = () => new AbortController().signal;

/** The user's prompts a session file holds, in order. */
async function prompts(file: string): Promise<string[]> {
  const { events } = await readSession(file);
  return userTurns(events).map((i) => {
    const event = events[i];
    if (event.type !== "user_message") throw new Error("not a user message");
    return event.message.blocks.flatMap((b) => b.type === "text" && !b.context ? [b.text] : [])
      .join("");
  });
}

Deno.test("fork() copies the session as saved so far into a new one, and this one goes on", async () => {
  const fake = startFakeProvider([
    { reply: { text: "one" } },
    { reply: { text: "two" } },
    { reply: { text: "three" } },
  ]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  try {
    const config: SessionConfig = { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never" };
    await using session = await openSession(config, { onEvent: () => {} }, { env: ws.env });
    await session.prompt("first", signal());
    await session.prompt("second", signal());
    const whole = await session.fork();
    const first = await session.fork(1);
    const own = session.status().sessionFile!;
    assert.notEqual(whole.file, own);
    assert.equal(whole.from.id, session.id);
    assert.deepEqual(await prompts(whole.file), ["first", "second"]);
    assert.deepEqual([first.turns, ...await prompts(first.file)], [1, "first"]);
    // The original goes on, and its copies are not touched by it.
    await session.prompt("third", signal());
    assert.deepEqual(await prompts(own), ["first", "second", "third"]);
    assert.deepEqual(await prompts(whole.file), ["first", "second"]);
  } finally {
    await fake.close();
  }
});

Deno.test("fork() of a session that is not saved is refused, saying why", async () => {
  const fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  try {
    const config: SessionConfig = { cwd: ws.cwd, ephemeral: true };
    await using session = await openSession(config, { onEvent: () => {} }, { env: ws.env });
    await assert.rejects(session.fork(), /not saved, so there is nothing to fork/);
  } finally {
    await fake.close();
  }
});
