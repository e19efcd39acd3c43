import assert from "node:assert/strict";
import { SessionError } from "../store/errors.ts";
import { createSession, type SessionHeaderInput } from "../store/store.ts";
import { tempHome, testHeader, userEvent } from "../store/_testing.ts";
import { readSession } from "../store/read.ts";
import { findResumable, resumableSessions, settingsInUse, withSettingsInUse } from "./resume.ts";

/** A saved session; with a prompt it holds a user message, without one it is a fresh `/new`. */
async function saved(home: string, header: Partial<SessionHeaderInput>, prompt?: string) {
  await using writer = await createSession(home, testHeader(header));
  await writer.append({ type: "model_switch", provider: "openai", model: "gpt-5" });
  if (prompt !== undefined) await writer.append(userEvent(prompt));
  return { id: writer.id, file: writer.file };
}

const CWD = "/work/project";

Deno.test("findResumable() finds a session by id, id prefix or file", async () => {
  await using home = await tempHome();
  const one = await saved(home.path, {}, "fix the bug");
  const lookup = { cwd: CWD, home: home.path };
  assert.deepEqual(await findResumable({ id: one.id }, lookup), one);
  assert.deepEqual(await findResumable({ id: one.id.slice(0, 13) }, lookup), one);
  assert.deepEqual(await findResumable({ id: one.file }, lookup), one);
  await assert.rejects(findResumable({ id: "ffffffff" }, lookup), /No session with id "ffffffff"/);
});

Deno.test("--last passes over a newer session that holds no user message (a fresh /new)", async () => {
  await using home = await tempHome();
  const worked = await saved(home.path, { created: new Date(2025, 0, 2, 9) }, "fix the bug");
  await saved(home.path, { created: new Date(2025, 0, 2, 10) });
  const found = await findResumable({ last: true }, { cwd: CWD, home: home.path });
  assert.deepEqual(found, worked);
  assert.deepEqual((await resumableSessions(home.path)).map((s) => s.id), [worked.id]);
});

Deno.test("--last looks in this directory unless --all, and at one origin when given", async () => {
  await using home = await tempHome();
  const repl = await saved(home.path, { created: new Date(2025, 0, 2, 9) }, "a");
  const exec = await saved(home.path, { created: new Date(2025, 0, 2, 10), origin: "exec" }, "b");
  const away = await saved(
    home.path,
    { created: new Date(2025, 0, 2, 11), cwd: "/elsewhere" },
    "c",
  );
  const lookup = { cwd: CWD, home: home.path };
  assert.equal((await findResumable({ last: true }, lookup)).id, exec.id);
  assert.equal((await findResumable({ last: true, origin: "repl" }, lookup)).id, repl.id);
  assert.equal((await findResumable({ last: true, all: true }, lookup)).id, away.id);
});

Deno.test("--last with nothing to resume says where it looked and how to start one", async () => {
  await using home = await tempHome();
  await saved(home.path, {});
  const lookup = { cwd: CWD, home: home.path, startCommand: "interpreter exec PROMPT" };
  await assert.rejects(findResumable({ last: true }, lookup), (error: unknown) => {
    assert.ok(error instanceof SessionError);
    assert.equal(error.message, `No saved session for "${CWD}"`);
    assert.equal(
      error.hint,
      'Add --all to look in every directory, or start one with "interpreter exec PROMPT"',
    );
    return true;
  });
  await assert.rejects(
    findResumable({ last: true, all: true, origin: "repl" }, { cwd: CWD, home: home.path }),
    (error: unknown) => {
      assert.ok(error instanceof SessionError);
      assert.equal(error.message, "No saved REPL session");
      assert.equal(error.hint, 'Start one with "interpreter"');
      return true;
    },
  );
});

Deno.test("a resume takes the harness, model and effort the session last used, flags win", async () => {
  await using home = await tempHome();
  await using writer = await createSession(home.path, testHeader({ harness: "native" }));
  await writer.append({ type: "harness_switch", harness: "claude-code" });
  await writer.append({
    type: "model_switch",
    provider: "anthropic",
    model: "claude-x",
    reasoningEffort: "high",
  });
  await writer.append(userEvent("go"));
  await writer.flush();
  const session = settingsInUse(await readSession(writer.file));
  const from = "the resumed session";
  const plain = withSettingsInUse({ cwd: CWD }, session);
  assert.deepEqual(
    [plain.harness, plain.model, plain.provider, plain.reasoningEffort],
    ["claude-code", "claude-x", "anthropic", "high"],
  );
  assert.equal(plain.labels?.harness, from);
  // A model of one's own lets the harness be chosen for it again.
  const flagged = withSettingsInUse({ cwd: CWD, model: "gpt-5" }, session);
  assert.deepEqual([flagged.harness, flagged.model, flagged.provider], [
    undefined,
    "gpt-5",
    undefined,
  ]);
  const harness = withSettingsInUse({ cwd: CWD, harness: "qwen-code" }, session);
  assert.deepEqual([harness.harness, harness.model], ["qwen-code", "claude-x"]);
  const override = { keyPath: ["model"], value: "m", origin: "-c" };
  assert.equal(withSettingsInUse({ cwd: CWD, overrides: [override] }, session).model, undefined);
});
