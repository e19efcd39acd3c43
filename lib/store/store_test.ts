import assert from "node:assert/strict";
import { VERSION } from "../version.ts";
import { findSessions } from "./list.ts";
import { readSession } from "./read.ts";
import { createSession, reopenForAppend, sessionFilePath } from "./store.ts";
import {
  answerEvent,
  callEvent,
  resultEvent,
  tempHome,
  testHeader,
  userEvent,
} from "./_testing.ts";

const CREATED = new Date(2025, 0, 2, 3, 4, 5);

Deno.test("createSession() writes the header under sessions/YYYY/MM/DD, named by time and id", async () => {
  await using home = await tempHome();
  await using writer = await createSession(home.path, testHeader({ created: CREATED }));
  assert.equal(writer.file, sessionFilePath(home.path, CREATED, writer.id));
  assert.match(
    writer.file,
    new RegExp(`/sessions/2025/01/02/session-2025-01-02T03-04-05-${writer.id}\\.jsonl$`),
  );
  assert.match(writer.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  const [line] = (await Deno.readTextFile(writer.file)).split("\n");
  assert.deepEqual(JSON.parse(line), {
    type: "session",
    version: 2,
    id: writer.id,
    created: CREATED.toISOString(),
    interpreterVersion: VERSION,
    ...testHeader(),
  });
  assert.equal((await Deno.stat(writer.file)).mode! & 0o777, 0o600);
});

Deno.test("SessionWriter.append() writes each event as one line before it resolves", async () => {
  await using home = await tempHome();
  const writer = await createSession(home.path, testHeader(), {
    now: () => new Date("2025-01-02T03:04:05.000Z"),
  });
  await writer.append(userEvent("list files"));
  const afterOne = (await Deno.readTextFile(writer.file)).split("\n");
  assert.equal(afterOne.length, 3);
  assert.deepEqual(JSON.parse(afterOne[1]), {
    ...userEvent("list files"),
    ts: "2025-01-02T03:04:05.000Z",
  });
  // Appends not awaited one by one still land in call order.
  await Promise.all([
    writer.append(callEvent("c1", "ls")),
    writer.append(resultEvent("c1", "x".repeat(100_000))),
    writer.append(answerEvent("Done.")),
  ]);
  await writer.close();
  const session = await readSession(writer.file);
  assert.deepEqual(session.events.map((e) => e.type), [
    "user_message",
    "assistant_message",
    "tool_result",
    "assistant_message",
  ]);
  assert.deepEqual(session.notes, []);
});

Deno.test("SessionWriter.append() rejects an invalid event and writing after close()", async () => {
  await using home = await tempHome();
  const writer = await createSession(home.path, testHeader());
  await assert.rejects(
    // deno-lint-ignore no-explicit-any -- an event a caller got wrong, on purpose
    writer.append({ type: "tool_result", message: { role: "tool_result" } } as any),
    /Invalid "tool_result" session event: message\.callId/,
  );
  await writer.close();
  await writer.close();
  await assert.rejects(writer.append(userEvent("late")), /it is closed/);
  assert.equal((await Deno.readTextFile(writer.file)).split("\n").length, 2);
});

Deno.test("createSession() refuses an id that is not a UUID and an invalid header", async () => {
  await using home = await tempHome();
  await assert.rejects(createSession(home.path, testHeader({ id: "../x" })), TypeError);
  // deno-lint-ignore no-explicit-any -- a header a caller got wrong, on purpose
  const wrongOrigin = testHeader({ origin: "tui" as any });
  await assert.rejects(createSession(home.path, wrongOrigin), /Invalid session header: origin/);
  assert.deepEqual(await findSessions(home.path), []);
});

Deno.test("reopenForAppend() continues the same file after the last complete line", async () => {
  await using home = await tempHome();
  const first = await createSession(home.path, testHeader());
  await first.append(userEvent("first task"));
  await first.close();
  await Deno.writeTextFile(first.file, '{"type":"assistant_message","ts":"2025-01', {
    append: true,
  });
  await using again = await reopenForAppend(first.file);
  assert.equal(again.id, first.id);
  assert.equal(again.notes.length, 1);
  await again.append(userEvent("second task"));
  const session = await readSession(first.file);
  assert.deepEqual(session.history.map((m) => m.role), ["user", "user"]);
  assert.deepEqual(session.notes, []);
});

Deno.test("reopenForAppend() keeps a valid last line that lacks its newline", async () => {
  await using home = await tempHome();
  const first = await createSession(home.path, testHeader());
  await first.append(userEvent("first task"));
  await first.close();
  const text = await Deno.readTextFile(first.file);
  await Deno.writeTextFile(first.file, text.slice(0, -1));
  await using again = await reopenForAppend(first.file);
  await again.append(userEvent("second task"));
  assert.deepEqual(again.notes, []);
  assert.equal((await readSession(first.file)).events.length, 2);
});

Deno.test("reopenForAppend() removes a complete but invalid last line", async () => {
  await using home = await tempHome();
  const first = await createSession(home.path, testHeader());
  await first.close();
  await Deno.writeTextFile(first.file, '{"type":"mystery"}\n', { append: true });
  await using again = await reopenForAppend(first.file);
  await again.append(userEvent("task"));
  const session = await readSession(first.file);
  assert.deepEqual(session.events.map((e) => e.type), ["user_message"]);
});

Deno.test("reopenForAppend() fails on a missing file or one without a header", async () => {
  await using home = await tempHome();
  await assert.rejects(reopenForAppend(`${home.path}/none.jsonl`), /no such file/);
  await Deno.writeTextFile(`${home.path}/bad.jsonl`, '{"type":"sess');
  await assert.rejects(reopenForAppend(`${home.path}/bad.jsonl`), /is not JSON/);
});

Deno.test("SessionWriter.flush() waits for appends that were not awaited", async () => {
  await using home = await tempHome();
  await using writer = await createSession(home.path, testHeader());
  for (let i = 0; i < 20; i++) writer.append(userEvent(`prompt ${i}`));
  await writer.flush();
  assert.equal((await Deno.readTextFile(writer.file)).split("\n").length, 22);
});
