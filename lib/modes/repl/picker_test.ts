import assert from "node:assert/strict";
import { createSession } from "../../store/store.ts";
import { tempHome, testHeader, userEvent } from "../../store/_testing.ts";
import { makeStyle } from "../term/style.ts";
import { pickSession } from "./picker.ts";
import { sessionNamesFile, setSessionName } from "../../store/names.ts";

/** A saved session; with a prompt it holds a user message, without one it is a fresh `/new`. */
async function saved(home: string, created: Date, prompt?: string): Promise<string> {
  await using writer = await createSession(home, testHeader({ created }));
  await writer.append({ type: "model_switch", provider: "openai", model: "gpt-5" });
  if (prompt !== undefined) await writer.append(userEvent(prompt));
  return writer.id;
}

/** Runs the picker with one answer; returns the id picked and what it printed. */
async function pick(home: string, answer: string | null) {
  const printed: string[] = [];
  const id = await pickSession(home, {
    print: (lines) => printed.push(...lines),
    ask: (prompt) => (printed.push(prompt), Promise.resolve(answer)),
    style: makeStyle(false),
  });
  return { id, printed };
}

Deno.test("the session picker leaves out sessions with no user message, as resume --last does", async () => {
  await using home = await tempHome();
  const older = await saved(home.path, new Date(2025, 0, 2, 9), "fix the bug");
  await saved(home.path, new Date(2025, 0, 2, 10));
  const newer = await saved(home.path, new Date(2025, 0, 2, 11), "add a test");
  const { id, printed } = await pick(home.path, "2");
  assert.equal(id, older, "number 2 is the older session with a prompt, not the empty one");
  const lines = printed.filter((line) => /^\s*\d+ {2}/.test(line));
  assert.equal(lines.length, 2, printed.join("\n"));
  assert.match(lines[0], /add a test$/);
  assert.match(lines[1], /fix the bug$/);
  assert.doesNotMatch(printed.join("\n"), /\(no prompt\)/);
  assert.equal((await pick(home.path, "1")).id, newer);
});

Deno.test("the session picker with only empty sessions says there is none", async () => {
  await using home = await tempHome();
  await saved(home.path, new Date(2025, 0, 2, 10));
  const { id, printed } = await pick(home.path, "1");
  assert.equal(id, undefined);
  assert.deepEqual(printed, ["No saved sessions"]);
});

Deno.test("the session picker shows a session's name before its first prompt", async () => {
  await using home = await tempHome();
  const named = await saved(home.path, new Date(2025, 0, 2, 9), "fix the bug");
  await saved(home.path, new Date(2025, 0, 2, 10), "add a test");
  await setSessionName(home.path, named, "login work");
  const { printed: shown } = await pick(home.path, "");
  assert.match(shown.join("\n"), / {2}login work · fix the bug$/m);
  // A name edited into the file by hand is shown inert.
  const file = sessionNamesFile(home.path);
  await Deno.writeTextFile(file, JSON.stringify({ [named]: "login\x1b[2J work" }));
  const { printed } = await pick(home.path, "");
  const lines = printed.filter((line) => /^\s*\d+ {2}/.test(line));
  assert.match(lines[0], / {2}add a test$/);
  assert.match(lines[1], / {2}login\\u\{1b\}\[2J work · fix the bug$/, "a name is shown inert");
});
