import assert from "node:assert/strict";
import { join } from "node:path";
import { SessionError } from "./errors.ts";
import type { SessionHeaderInput } from "./store.ts";
import { findSessionFile, findSessions, readSessionByRef } from "./list.ts";
import { createSession } from "./store.ts";
import { tempHome, testHeader, userEvent } from "./_testing.ts";

async function saved(home: string, header: Partial<SessionHeaderInput>, prompt?: string) {
  await using writer = await createSession(home, testHeader(header));
  if (prompt !== undefined) {
    await writer.append({ type: "model_switch", provider: "openai", model: "gpt-5" });
    await writer.append(userEvent(prompt));
    await writer.append(userEvent("a later prompt"));
  }
  return writer.id;
}

Deno.test("findSessions() lists newest first with the first prompt, filtered by cwd and origin", async () => {
  await using home = await tempHome();
  const oldest = await saved(home.path, { created: new Date(2024, 11, 31, 23, 0) }, "fix the bug");
  const other = await saved(home.path, { created: new Date(2025, 0, 1, 9), cwd: "/elsewhere" });
  const exec = await saved(home.path, { created: new Date(2025, 0, 2, 9), origin: "exec" }, "x");
  const newest = await saved(home.path, { created: new Date(2025, 0, 2, 10) }, "run the tests");
  const all = await findSessions(home.path);
  assert.deepEqual(all.map((s) => s.id), [newest, exec, other, oldest]);
  assert.deepEqual(all.map((s) => s.firstPrompt), ["run the tests", "x", undefined, "fix the bug"]);
  assert.equal(all[0].created.getTime(), new Date(2025, 0, 2, 10).getTime());
  assert.equal(all[0].header.model, "qwen3-coder:30b");
  const here = await findSessions(home.path, { cwd: "/work/project/", origin: "repl" });
  assert.deepEqual(here.map((s) => s.id), [newest, oldest]);
  assert.deepEqual((await findSessions(home.path, { limit: 2 })).map((s) => s.id), [newest, exec]);
  const prompted = await findSessions(home.path, { withPrompt: true });
  assert.deepEqual(prompted.map((s) => s.id), [newest, exec, oldest]);
});

Deno.test("findSessions() skips files that are not sessions and reports them", async () => {
  await using home = await tempHome();
  assert.deepEqual(await findSessions(home.path), []);
  const good = await saved(home.path, {}, "task");
  const dir = join(home.path, "sessions", "2025", "01", "02");
  await Deno.mkdir(dir, { recursive: true });
  const bad = join(dir, "session-2025-01-02T03-04-05-0194a3b2-7c4d-7e5f-8a6b-7c8d9e0f1a2b.jsonl");
  await Deno.writeTextFile(bad, "garbage\n");
  await Deno.writeTextFile(join(dir, "notes.txt"), "not a session");
  const skipped: string[] = [];
  const found = await findSessions(home.path, { onSkipped: (file) => skipped.push(file) });
  assert.deepEqual(found.map((s) => s.id), [good]);
  assert.deepEqual(skipped, [bad]);
});

Deno.test("findSessionFile() finds a session by id, id prefix or path", async () => {
  await using home = await tempHome();
  const a = await saved(home.path, { id: "0194a3b2-7c4d-7e5f-8a6b-7c8d9e0f1a2b" }, "a");
  const b = await saved(home.path, { id: "0194a3b2-7c4d-7e5f-9a6b-7c8d9e0f1a2c" }, "b");
  const fileOf = async (ref: string) => (await readSessionByRef(home.path, ref)).header.id;
  assert.equal(await fileOf(a), a);
  assert.equal(await fileOf("0194a3b2-7c4d-7e5f-9"), b);
  assert.equal(await fileOf("0194A3B2-7C4D-7E5F-8"), a);
  const file = await findSessionFile(home.path, b);
  assert.equal(await findSessionFile(home.path, file), file);
  await assert.rejects(findSessionFile(home.path, "0194a3b2"), /ambiguous: 2 match/);
  await assert.rejects(findSessionFile(home.path, "ffff"), /No session with id "ffff"/);
  await assert.rejects(findSessionFile(home.path, "xyz!"), /is not a session id/);
  await assert.rejects(findSessionFile(home.path, "01"), SessionError);
  await assert.rejects(findSessionFile(home.path, `${home.path}/none.jsonl`), /does not exist/);
});
