import assert from "node:assert/strict";
import { join } from "node:path";
import { makeHomeDir, secureHome, writeHomeFile } from "./home.ts";

async function modeOf(path: string): Promise<number> {
  return (await Deno.lstat(path)).mode! & 0o777;
}

async function tempDir() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_home_" }));
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("makeHomeDir() and writeHomeFile() make folders 0700 and files 0600", async () => {
  await using t = await tempDir();
  const home = join(t.dir, ".openinterpreter");
  await makeHomeDir(join(home, "state", "open"));
  await writeHomeFile(join(home, "config.toml"), 'model = "m"\n');
  for (const folder of [home, join(home, "state"), join(home, "state", "open")]) {
    assert.equal(await modeOf(folder), 0o700, folder);
  }
  assert.equal(await modeOf(join(home, "config.toml")), 0o600);

  await Deno.chmod(join(home, "config.toml"), 0o644);
  await writeHomeFile(join(home, "config.toml"), 'model = "n"\n');
  assert.equal(await modeOf(join(home, "config.toml")), 0o600, "a replaced file is 0600 too");
  assert.equal(await Deno.readTextFile(join(home, "config.toml")), 'model = "n"\n');
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(home))).map((e) => e.name).sort(),
    ["config.toml", "state"],
    "no temp file left behind",
  );
});

Deno.test("secureHome() narrows an earlier version's home and leaves the user's own files", async () => {
  await using t = await tempDir();
  const home = join(t.dir, ".openinterpreter");
  const day = join(home, "sessions", "2025", "01", "02");
  await Deno.mkdir(day, { recursive: true, mode: 0o755 });
  await Deno.mkdir(join(home, "state"), { mode: 0o755 });
  await Deno.mkdir(join(home, "skills", "tool"), { recursive: true, mode: 0o755 });
  const files = {
    config: join(home, "config.toml"),
    history: join(home, "history.jsonl"),
    session: join(day, "rollout.jsonl"),
    held: join(home, "state", "held_back.json"),
    script: join(home, "skills", "tool", "run.sh"),
    outside: join(t.dir, "elsewhere.txt"),
  };
  for (const file of Object.values(files)) await Deno.writeTextFile(file, "x\n", { mode: 0o644 });
  await Deno.chmod(files.script, 0o755);
  await Deno.symlink(files.outside, join(home, "state", "link"));
  for (const path of [home, join(home, "sessions"), join(home, "sessions", "2025"), day]) {
    await Deno.chmod(path, 0o755);
  }

  await secureHome(home);

  for (const folder of [home, join(home, "state"), join(home, "sessions", "2025"), day]) {
    assert.equal(await modeOf(folder), 0o700, folder);
  }
  for (const file of [files.config, files.history, files.session, files.held]) {
    assert.equal(await modeOf(file), 0o600, file);
  }
  assert.equal(await modeOf(files.script), 0o755, "the user's skill keeps its mode");
  assert.equal(await modeOf(join(home, "skills")), 0o755);
  assert.equal(await modeOf(files.outside), 0o644, "a symlink is not followed");
});

Deno.test("secureHome() leaves a missing home missing", async () => {
  await using t = await tempDir();
  await secureHome(join(t.dir, "absent"));
  await assert.rejects(() => Deno.lstat(join(t.dir, "absent")), Deno.errors.NotFound);
});
