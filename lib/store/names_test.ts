import assert from "node:assert/strict";
import { SessionError } from "./errors.ts";
import {
  checkSessionName,
  MAX_NAME_CHARS,
  readSessionNames,
  sessionNamesFile,
  setSessionName,
} from "./names.ts";
import { tempHome } from "./_testing.ts";
import { uuidV7 } from "./uuid.ts";

Deno.test("setSessionName() names, renames and unnames sessions in one private file", async () => {
  await using home = await tempHome();
  const [a, b] = [uuidV7(), uuidV7()];
  assert.deepEqual(await readSessionNames(home.path), new Map());
  assert.equal(await setSessionName(home.path, a, "  fix the login  "), "fix the login");
  await setSessionName(home.path, b, "docs");
  await setSessionName(home.path, a, "login, again");
  assert.deepEqual(await readSessionNames(home.path), new Map([[a, "login, again"], [b, "docs"]]));
  await setSessionName(home.path, b, undefined);
  assert.deepEqual(await readSessionNames(home.path), new Map([[a, "login, again"]]));
  const file = sessionNamesFile(home.path);
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), { [a]: "login, again" });
  const left = await Array.fromAsync(Deno.readDir(home.path));
  assert.deepEqual(left.map((e) => e.name), ["session_names.json"], "no temp file is left");
});

Deno.test("checkSessionName() refuses an empty, multi-line or overlong name, saying why", () => {
  assert.equal(checkSessionName(" ok "), "ok");
  assert.throws(() => checkSessionName("  "), /the name is empty/);
  assert.throws(() => checkSessionName("a\nb"), /control characters/);
  assert.throws(() => checkSessionName("x".repeat(MAX_NAME_CHARS + 1)), /longer than 80/);
  assert.equal(checkSessionName("é".repeat(MAX_NAME_CHARS)).length, MAX_NAME_CHARS);
});

Deno.test("readSessionNames() names the file and the fix when it is not a names object", async () => {
  await using home = await tempHome();
  const file = sessionNamesFile(home.path);
  for (const text of ["{", "[]", '{"not-an-id": "x"}', `{"${uuidV7()}": 3}`]) {
    await Deno.writeTextFile(file, text);
    await assert.rejects(readSessionNames(home.path), (e: Error) => {
      assert.ok(e instanceof SessionError);
      assert.match(e.message, /^Cannot read the session names in ".*session_names\.json": /);
      assert.match(e.hint!, /delete it/);
      return true;
    });
    // A broken file is not overwritten by a rename: the names in it would be lost.
    await assert.rejects(setSessionName(home.path, uuidV7(), "x"), SessionError);
    assert.equal(await Deno.readTextFile(file), text);
  }
});
