import assert from "node:assert/strict";
import { SessionError } from "./errors.ts";
import { MAX_SESSION_BYTES, readSession } from "./read.ts";
import { createSession } from "./store.ts";
import {
  answerEvent,
  callEvent,
  resultEvent,
  tempHome,
  testHeader,
  userEvent,
} from "./_testing.ts";

async function writtenSession(home: string): Promise<string> {
  await using writer = await createSession(home, testHeader());
  for (const event of [userEvent("task"), callEvent("c1", "ls"), resultEvent("c1", "a.txt")]) {
    await writer.append(event);
  }
  await writer.append(answerEvent("One file."));
  return writer.file;
}

async function replaceLine(file: string, index: number, text: string): Promise<void> {
  const lines = (await Deno.readTextFile(file)).split("\n");
  lines[index] = text;
  await Deno.writeTextFile(file, lines.join("\n"));
}

Deno.test("readSession() returns the header, every event, and the history as written", async () => {
  await using home = await tempHome();
  const file = await writtenSession(home.path);
  const session = await readSession(file);
  assert.equal(session.header.origin, "repl");
  assert.equal(session.events.length, 4);
  assert.deepEqual(
    session.history,
    [
      userEvent("task"),
      callEvent("c1", "ls"),
      resultEvent("c1", "a.txt"),
      answerEvent("One file."),
    ].map((e) => "message" in e ? e.message : undefined),
  );
  assert.deepEqual(session.notes, []);
});

Deno.test("readSession() skips a truncated last line with a note naming it", async () => {
  await using home = await tempHome();
  const file = await writtenSession(home.path);
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(file, text.slice(0, -20));
  const session = await readSession(file);
  assert.equal(session.events.length, 3);
  assert.equal(session.notes.length, 1);
  assert.match(session.notes[0], /Skipped the last line \(5\) of ".*": it is incomplete/);
});

Deno.test("readSession() skips a complete but corrupt last line with a note", async () => {
  await using home = await tempHome();
  const file = await writtenSession(home.path);
  await replaceLine(file, 4, '{"type":"tool_result","ts":"2025-01-02T03:04:05.000Z"}');
  const session = await readSession(file);
  assert.equal(session.events.length, 3);
  assert.match(session.notes[0], /line \(5\).*not a valid event: invalid "tool_result" event/);
});

Deno.test("readSession() fails on a corrupt middle line, naming the file and line", async () => {
  await using home = await tempHome();
  const file = await writtenSession(home.path);
  await replaceLine(file, 2, "{not json");
  const error = await readSession(file).catch((e) => e);
  assert.ok(error instanceof SessionError);
  assert.equal(error.line, 3);
  assert.equal(error.file, file);
  assert.ok(error.message.startsWith(`Cannot read session "${file}" at line 3: not JSON`));
  await replaceLine(file, 2, '{"type":"telepathy","ts":"2025-01-02T03:04:05.000Z"}');
  await assert.rejects(readSession(file), /at line 3: unknown event type "telepathy"/);
  await replaceLine(file, 2, JSON.stringify({ ...userEvent("x"), ts: "yesterday" }));
  await assert.rejects(readSession(file), /at line 3: invalid "user_message" event: ts: /);
});

Deno.test("readSession() explains a missing, empty, header-less or newer-format file", async () => {
  await using home = await tempHome();
  const file = `${home.path}/s.jsonl`;
  await assert.rejects(readSession(file), /Cannot read session ".*s\.jsonl": no such file/);
  await Deno.writeTextFile(file, "");
  await assert.rejects(readSession(file), /is empty/);
  await Deno.writeTextFile(file, '{"type":"session","vers');
  await assert.rejects(readSession(file), /header line is incomplete/);
  await Deno.writeTextFile(file, `${JSON.stringify(userEvent("x"))}\n`);
  await assert.rejects(readSession(file), /not a session header/);
  const newer = { type: "session", version: 3, id: "x" };
  await Deno.writeTextFile(file, `${JSON.stringify(newer)}\n`);
  await assert.rejects(readSession(file), /format version 3, and this interpreter reads up to 2/);
  const header = { type: "session", version: 1, id: "x", created: "now" };
  await Deno.writeTextFile(file, `${JSON.stringify(header)}\n`);
  await assert.rejects(readSession(file), /invalid header: created: /);
});

Deno.test("readSession() marks a tool call left without a result in its notes", async () => {
  await using home = await tempHome();
  await using writer = await createSession(home.path, testHeader());
  await writer.append(userEvent("task"));
  await writer.append(callEvent("c1", "sleep 30"));
  const session = await readSession(writer.file);
  assert.equal(session.history.length, 3);
  assert.deepEqual(session.notes, ["1 tool call had no result; marked as interrupted"]);
});

Deno.test("readSession() gives the last tool_state event's snapshot as toolState", async () => {
  await using home = await tempHome();
  await using writer = await createSession(home.path, testHeader());
  await writer.append(userEvent("task"));
  assert.equal((await readSession(writer.file)).toolState, undefined);
  const first = { version: 1, values: { todos: [{ content: "a", status: "pending" }] } };
  const last = { version: 1, values: { todos: [], "harness.loaded_tools": ["WebFetch"] } };
  await writer.append({ type: "tool_state", state: first });
  await writer.append(answerEvent("Noted."));
  await writer.append({ type: "tool_state", state: last });
  const session = await readSession(writer.file);
  assert.deepEqual(session.toolState, last);
  assert.equal(session.history.length, 2, "tool_state lines are not messages");
  await assert.rejects(
    writer.append({ type: "tool_state", state: ["not", "a", "record"] as never }),
    /state/,
  );
});

Deno.test("readSession() refuses what is not a regular file, or too big to be a session", async () => {
  await using home = await tempHome();
  await assert.rejects(
    readSession(home.path),
    (e) => e instanceof SessionError && /: it is not a regular file$/.test(e.message),
  );
  const fifo = `${home.path}/fifo.jsonl`;
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output().catch(() => undefined);
  if (made?.success) await assert.rejects(readSession(fifo), /: it is not a regular file$/);
  const huge = `${home.path}/huge.jsonl`;
  await Deno.writeTextFile(huge, "");
  await Deno.truncate(huge, MAX_SESSION_BYTES + 1);
  await assert.rejects(
    readSession(huge),
    new RegExp(`Cannot read session ".*huge\\.jsonl": it has ${MAX_SESSION_BYTES + 1} bytes`),
  );
});
