/**
 * `/undo` raced by a process that keeps swapping the workspace's folders for symlinks to folders
 * outside it, as a background job the model started could: the restore's writes go through a
 * file helper under bwrap with only the workspace writable, so across 40 folders and 10 runs
 * nothing lands outside and no temporary file is left anywhere. The control: without the swaps
 * every file comes back, content and mode. A forged checkpoint record naming a protected file
 * (`.openinterpreter/config.toml`) is refused, and the file stays as it is.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isTempFileName, type RestoringFileSystem } from "../../../sandbox/file_system.ts";
import { checkpointsDir } from "../../store/mod.ts";
import { sha256Hex } from "../../tools/_edit_history.ts";
import { blobStore } from "./_checkpoint_blobs.ts";
import { restorePath } from "./_restore_files.ts";
import { restoreWriterOpener } from "./_restore_writer.ts";
import { NOTHING_RUNNING } from "../_running_work.ts";
import { Checkpoints } from "./checkpoints.ts";
import type { Message } from "../../model/message.ts";
import { need } from "../../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");
const hasBwrap = BWRAP.ok;
const ignore = BWRAP.ignore;
const SKIP = BWRAP.note;

const FOLDERS = 40;
const RUNS = 10;
const SCRIPT = "#!/bin/sh\necho from the checkpoint\n";
const names = Array.from({ length: FOLDERS }, (_, i) => `d${String(i).padStart(2, "0")}`);
const yes = () => Promise.resolve(true);

/**
 * A plain folder `ws` with `dNN/f.txt` (an executable script) and `link` (to `d00/f.txt`),
 * `outside/dNN`, and checkpoints over `ws`.
 */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_restore_race_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  for (const name of names) {
    await Deno.mkdir(join(ws, name), { recursive: true });
    await Deno.mkdir(join(outside, name), { recursive: true });
    await Deno.writeTextFile(join(ws, name, "f.txt"), SCRIPT, { mode: 0o755 });
    await Deno.chmod(join(ws, name, "f.txt"), 0o755);
  }
  await Deno.symlink("d00/f.txt", join(ws, "link"));
  const messages: Message[] = [];
  const warnings: string[] = [];
  const checkpoints = new Checkpoints({
    cwd: ws,
    loop: { model: "m", system: [], messages, usage: {} as never },
    toolState: new Map(),
    recorder: { file: undefined, append: () => {}, flush: () => Promise.resolve() },
    sources: { gitRoot: () => Promise.resolve(undefined), repoGit: () => Promise.reject() },
    warn: (message) => warnings.push(message),
    openWriter: restoreWriterOpener({ mode: "workspace-write", bwrap: hasBwrap }),
    running: NOTHING_RUNNING,
  });
  /** One turn that makes every `dNN/f.txt` a plain "two" file, and `link` a file. */
  const turn = async () => {
    await checkpoints.begin([{ type: "text", text: "change them" }]);
    messages.push({ role: "user", blocks: [{ type: "text", text: "change them" }] });
    for (const name of names) {
      await Deno.writeTextFile(join(ws, name, "f.txt"), "two\n");
      await Deno.chmod(join(ws, name, "f.txt"), 0o644);
    }
    await Deno.remove(join(ws, "link"));
    await Deno.writeTextFile(join(ws, "link"), "a file now\n");
    await checkpoints.end();
  };
  return {
    ws,
    outside,
    checkpoints,
    warnings,
    turn,
    async [Symbol.asyncDispose]() {
      await checkpoints[Symbol.asyncDispose]();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/**
 * A process that, until killed, moves every folder of `ws` aside and puts a symlink to its twin
 * under `outside` in its place, then puts the folders back, over and over. Resolves once it
 * has swapped the first round.
 */
async function startSwapper(ws: string, outside: string) {
  const code = `
    const [ws, outside, ...names] = Deno.args;
    const swap = (name) => {
      try { Deno.renameSync(ws + "/" + name, ws + "/" + name + ".x"); } catch { return; }
      try { Deno.symlinkSync(outside + "/" + name, ws + "/" + name); } catch { /* made again */ }
    };
    const back = (name) => {
      try { if (Deno.lstatSync(ws + "/" + name).isSymlink) Deno.removeSync(ws + "/" + name); } catch {}
      try { Deno.renameSync(ws + "/" + name + ".x", ws + "/" + name); } catch {}
    };
    let first = true;
    for (;;) {
      for (const name of names) swap(name);
      if (first) { console.log("swapping"); first = false; }
      const until = performance.now() + 0.3;
      while (performance.now() < until) { /* a symlink stays a moment */ }
      for (const name of names) back(name);
    }`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code, ws, outside, ...names],
    stdout: "piped",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const first = await reader.read();
  assert.match(first.value ?? "", /swapping/);
  return {
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await child.status;
      await reader.cancel();
    },
  };
}

/** Every path under `dir` (symlinks not followed), sorted. */
async function walk(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    found.push(path);
    if (entry.isDirectory) found.push(...await walk(path));
  }
  return found.sort();
}

Deno.test({
  name: "a restore raced by folders swapped for symlinks writes nothing outside" + SKIP,
  ignore,
  async fn() {
    let refused = 0;
    for (let run = 0; run < RUNS; run++) {
      await using ws = await layout();
      await ws.turn();
      {
        await using _swapper = await startSwapper(ws.ws, ws.outside);
        const result = await ws.checkpoints.undo(yes);
        refused += result.failed.length;
        assert.equal(result.unconfined, undefined);
      }
      assert.deepEqual(await walk(ws.outside), names.map((n) => join(ws.outside, n)), `run ${run}`);
      const temps = (await walk(ws.ws)).filter((p) => isTempFileName(p.split("/").pop()!));
      assert.deepEqual(temps, [], `run ${run}: temporary files left`);
    }
    // The swaps met the restore: some writes were refused (else this proved nothing).
    assert.ok(refused > 0, "no write was ever refused: the swapper never raced the restore");
  },
});

Deno.test({
  name: "a restore without swaps brings back every file with its mode, and the link" + SKIP,
  ignore,
  async fn() {
    await using ws = await layout();
    await ws.turn();
    const result = await ws.checkpoints.undo(() => Promise.reject(new Error("not asked")));
    assert.deepEqual(result.failed, []);
    assert.equal(result.restored.length, FOLDERS + 1);
    assert.equal(await Deno.readLink(join(ws.ws, "link")), "d00/f.txt");
    for (const name of names) {
      const file = join(ws.ws, name, "f.txt");
      assert.equal(await Deno.readTextFile(file), SCRIPT);
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o755);
    }
    assert.deepEqual((await walk(ws.ws)).filter((p) => isTempFileName(p.split("/").pop()!)), []);
    assert.deepEqual(ws.warnings, []);
  },
});

/** A session file made in `cwd` whose checkpoint records are `records`. */
async function sessionFile(dir: string, cwd: string, records: unknown[]): Promise<string> {
  const file = join(dir, "forged.jsonl");
  const header = {
    type: "session",
    version: 2,
    id: "forged",
    created: new Date().toISOString(),
    cwd,
    interpreterVersion: "0",
    model: "m",
    provider: "p",
    harness: "minimal",
    sandbox: "workspace-write",
    approval: "on-request",
    origin: "repl",
  };
  const ts = new Date().toISOString();
  const lines = [header, ...records.map((checkpoint) => ({ type: "checkpoint", ts, checkpoint }))];
  await Deno.writeTextFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

Deno.test({
  name: "a forged checkpoint naming .openinterpreter/config.toml is refused; a.txt is restored" +
    SKIP,
  ignore,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_forged_" }));
    try {
      const ws = join(root, "ws");
      await Deno.mkdir(join(ws, ".openinterpreter"), { recursive: true });
      const config = join(ws, ".openinterpreter", "config.toml");
      await Deno.writeTextFile(config, 'model = "mine"\n');
      await Deno.writeTextFile(join(ws, "a.txt"), "agent\n");
      const evil = new TextEncoder().encode('sandbox_mode = "danger-full-access"\n');
      const old = new TextEncoder().encode("old\n");
      const [evilSha, oldSha] = [await sha256Hex(evil), await sha256Hex(old)];
      const start = (turn: number) => ({
        phase: "start",
        turn,
        historyLength: 0,
        prompt: `turn ${turn}`,
        fingerprint: "x",
      });
      const now = { sha: await sha256Hex(new TextEncoder().encode("agent\n")), mode: 0o644 };
      const file = await sessionFile(root, ws, [
        start(1),
        {
          phase: "end",
          turn: 1,
          files: {
            ".openinterpreter/config.toml": { before: { sha: evilSha, mode: 0o644 }, after: null },
          },
        },
        start(2),
        {
          phase: "end",
          turn: 2,
          files: { "a.txt": { before: { sha: oldSha, mode: 0o644 }, after: now } },
        },
      ]);
      const blobs = blobStore(checkpointsDir(file));
      await blobs.put(evilSha, evil);
      await blobs.put(oldSha, old);
      const warnings: string[] = [];
      await using checkpoints = new Checkpoints({
        cwd: ws,
        loop: { model: "m", system: [], messages: [], usage: {} as never },
        toolState: new Map(),
        recorder: { file, resumedFrom: { file }, append: () => {}, flush: () => Promise.resolve() },
        sources: { gitRoot: () => Promise.resolve(undefined), repoGit: () => Promise.reject() },
        warn: (message) => warnings.push(message),
        openWriter: restoreWriterOpener({ mode: "workspace-write", bwrap: hasBwrap }),
        running: NOTHING_RUNNING,
      });
      const list = await checkpoints.list();
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0],
        /Skipped 1 checkpoint record .*: the path "\.openinterpreter\/config\.toml" is refused: it is inside a \.openinterpreter folder, which a restore never writes/,
      );
      assert.deepEqual(list.turns.map((t) => t.files), [[], ["a.txt"]]);
      const result = await checkpoints.rewind(1, { code: true, conversation: false }, yes);
      assert.deepEqual([result.restored, result.failed], [["a.txt"], []]);
      assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "old\n");
      assert.equal(await Deno.readTextFile(config), 'model = "mine"\n');

      // Asked directly, the restore refuses each protected name, whatever the record said.
      const untouched = new Proxy({}, {
        get: () => () => Promise.reject(new Error("the file system was used")),
      }) as RestoringFileSystem;
      const paths = [
        ".openinterpreter/config.toml",
        ".agents/skills/x/SKILL.md",
        "sub/.git/config",
      ];
      for (const path of paths) {
        const state = { sha: evilSha, mode: 0o644 };
        await assert.rejects(
          restorePath(untouched, ws, path, { state, blobs }),
          /folder, which a restore never writes/,
        );
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
