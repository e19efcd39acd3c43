import assert from "node:assert/strict";
import { sessionNamesFile, setSessionName } from "../store/names.ts";
import { createSession, type SessionHeaderInput } from "../store/store.ts";
import { tempHome, testHeader, userEvent } from "../store/_testing.ts";
import { listSavedSessions, nameSavedSession, savedSessionName } from "./saved_sessions.ts";

async function saved(home: string, header: Partial<SessionHeaderInput>, prompt?: string) {
  await using writer = await createSession(home, testHeader(header));
  if (prompt !== undefined) await writer.append(userEvent(prompt));
  return writer.id;
}

Deno.test("listSavedSessions() lists resumable sessions newest first, named ones with their name", async () => {
  await using home = await tempHome();
  const older = await saved(home.path, { created: new Date(2025, 0, 1) }, "first task");
  const newer = await saved(home.path, { created: new Date(2025, 0, 2) }, "second task");
  await saved(home.path, { created: new Date(2025, 0, 3) }); // a fresh /new: nothing to resume
  const elsewhere = await saved(home.path, { cwd: "/elsewhere" }, "other");
  await setSessionName(home.path, older, "bugfix");
  const { sessions, namesError } = await listSavedSessions(home.path, { cwd: "/work/project" });
  assert.equal(namesError, undefined);
  assert.deepEqual(sessions.map((s) => [s.id, s.name, s.firstPrompt]), [
    [newer, undefined, "second task"],
    [older, "bugfix", "first task"],
  ]);
  const all = await listSavedSessions(home.path);
  assert.ok(all.sessions.some((s) => s.id === elsewhere), "without a cwd every directory counts");
});

Deno.test("listSavedSessions() still lists the sessions when the names file is broken, saying why", async () => {
  await using home = await tempHome();
  const id = await saved(home.path, {}, "task");
  await Deno.writeTextFile(sessionNamesFile(home.path), "not json");
  const { sessions, namesError } = await listSavedSessions(home.path);
  assert.deepEqual(sessions.map((s) => [s.id, s.name]), [[id, undefined]]);
  assert.match(namesError?.message ?? "", /not JSON/);
});

Deno.test("nameSavedSession() names a session, savedSessionName() reads it back, undefined unnames", async () => {
  await using home = await tempHome();
  const id = await saved(home.path, {}, "task");
  assert.equal(await savedSessionName(home.path, id), undefined);
  assert.equal(await nameSavedSession(home.path, id, "  fix login  "), "fix login");
  assert.equal(await savedSessionName(home.path, id), "fix login");
  await nameSavedSession(home.path, id, undefined);
  assert.equal(await savedSessionName(home.path, id), undefined);
});
