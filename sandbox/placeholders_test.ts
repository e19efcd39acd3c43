/**
 * Placeholders on a real file system: what counts as one, which a sweep removes and which it must
 * leave (the user's, another live session's, one a running sandbox covers), and how two sessions
 * on one workspace share them. Folders lie outside /tmp, like every workspace test here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_PROTECTED_NAMES, protectedPathsUnder } from "./bwrap_args.ts";
import {
  coveredWhenMissing,
  isPlaceholder,
  PLACEHOLDER_MODE,
  PlaceholderGuard,
  sweepPlaceholders,
} from "./placeholders.ts";
import { probeBubblewrap } from "./probe.ts";
import { need } from "./_test_requires.ts";

/** The protected names that get placeholders (ours; other agents' only where they exist). */
const NAMES = DEFAULT_PROTECTED_NAMES.filter(coveredWhenMissing);
const BWRAP = await need("bwrap");
const probe = BWRAP.ok ? await probeBubblewrap() : undefined;

interface Scratch extends AsyncDisposable {
  ws: string;
  records: string;
  guard(): PlaceholderGuard;
  names(): Promise<string[]>;
}

async function scratch(): Promise<Scratch> {
  const parent = Deno.env.get("HOME") ?? "/var/tmp";
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: parent, prefix: "oi_ph_" }));
  const ws = join(root, "ws");
  const records = join(root, "records");
  await Deno.mkdir(ws);
  await Deno.mkdir(records);
  return {
    ws,
    records,
    guard: () => new PlaceholderGuard({ roots: [ws], names: NAMES, recordDir: records }),
    names: async () => (await Array.fromAsync(Deno.readDir(ws), (e) => e.name)).sort(),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

async function placeholderAt(path: string): Promise<void> {
  await Deno.mkdir(path);
  await Deno.chmod(path, PLACEHOLDER_MODE);
}

Deno.test("isPlaceholder() is true only for an empty 0555 folder", async () => {
  await using s = await scratch();
  await placeholderAt(join(s.ws, "p"));
  await Deno.mkdir(join(s.ws, "open"));
  await placeholderAt(join(s.ws, "full"));
  await Deno.chmod(join(s.ws, "full"), 0o755);
  await Deno.writeTextFile(join(s.ws, "full", "x"), "");
  await Deno.chmod(join(s.ws, "full"), PLACEHOLDER_MODE);
  await Deno.writeFile(join(s.ws, "file"), new Uint8Array(), { mode: 0o444 });
  await Deno.symlink("p", join(s.ws, "link"));
  const results = await Promise.all(
    ["p", "open", "full", "file", "link", "missing"].map((n) => isPlaceholder(join(s.ws, n))),
  );
  assert.deepEqual(results, [true, false, false, false, false, false]);
  await Deno.chmod(join(s.ws, "full"), 0o755);
});

Deno.test("sweepPlaceholders() removes placeholders at protected names and nothing else", async () => {
  await using s = await scratch();
  await placeholderAt(join(s.ws, ".git"));
  await placeholderAt(join(s.ws, ".agents"));
  await Deno.mkdir(join(s.ws, ".openinterpreter")); // the user's empty folder: another mode
  await placeholderAt(join(s.ws, "notes")); // the right shape, not a protected name
  const removed = await sweepPlaceholders([s.ws], NAMES);
  assert.deepEqual(removed.sort(), [join(s.ws, ".agents"), join(s.ws, ".git")]);
  assert.deepEqual(await s.names(), [".openinterpreter", "notes"]);
});

Deno.test("sweepPlaceholders() leaves the placeholders a live session holds", async () => {
  await using s = await scratch();
  const guard = s.guard();
  const cover = await guard.cover();
  assert.deepEqual(cover.placeholders.sort(), NAMES.map((n) => join(s.ws, n)).sort());
  assert.deepEqual(await sweepPlaceholders([s.ws], NAMES), []);
  assert.deepEqual(await s.names(), [...NAMES].sort());
  await guard[Symbol.asyncDispose]();
  assert.deepEqual(await s.names(), []);
});

Deno.test({
  name: "sweepPlaceholders() leaves a placeholder that a running sandbox covers" +
    BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    await using s = await scratch();
    const agents = join(s.ws, ".agents");
    await placeholderAt(agents);
    // A sandbox left running by a session that crashed: it holds no lock, only the mount.
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--bind", s.ws, s.ws];
    args.push("--ro-bind", agents, agents, "--unshare-user", "--", "sh", "-c", "echo up; read x");
    const sandbox = new Deno.Command(probe!.ok ? probe!.bwrap : "bwrap", {
      args,
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    const out = sandbox.stdout.getReader();
    assert.equal(new TextDecoder().decode((await out.read()).value), "up\n");
    assert.deepEqual(await sweepPlaceholders([s.ws], NAMES), []);
    await sandbox.stdin.close();
    await out.cancel();
    await sandbox.status;
    assert.deepEqual(await sweepPlaceholders([s.ws], NAMES), [agents]);
  },
});

Deno.test("PlaceholderGuard: a placeholder two sessions share stays until both are done", async () => {
  await using s = await scratch();
  const first = s.guard();
  const second = s.guard();
  await first.cover();
  const shared = await second.cover();
  assert.equal(shared.placeholders.length, NAMES.length, "the second session adopts them");
  await first[Symbol.asyncDispose]();
  assert.deepEqual(await s.names(), [...NAMES].sort(), "the second session still relies on them");
  await second[Symbol.asyncDispose]();
  assert.deepEqual(await s.names(), []);
});

Deno.test("PlaceholderGuard.cover() binds what exists and makes placeholders for the rest", async () => {
  await using s = await scratch();
  await Deno.mkdir(join(s.ws, ".git"));
  await Deno.mkdir(join(s.ws, "real-agents"));
  await Deno.symlink("real-agents", join(s.ws, ".agents"));
  await using guard = s.guard();
  const cover = await guard.cover();
  assert.deepEqual(cover.existing, [join(s.ws, ".git"), join(s.ws, "real-agents")]);
  assert.deepEqual(cover.placeholders, [join(s.ws, ".openinterpreter")]);
  assert.ok(cover.record?.startsWith(s.records));
  const info = await Deno.lstat(join(s.ws, ".openinterpreter"));
  assert.equal(info.mode! & 0o7777, PLACEHOLDER_MODE);
  if (Deno.uid() === 0) assert.equal(info.uid, 65534, "a root session gives it away");
  // The file-tool helper binds only real protected paths, never a placeholder.
  assert.deepEqual(await protectedPathsUnder([s.ws], NAMES), cover.existing);
});

Deno.test("PlaceholderGuard.reclaim() keeps placeholders while a run record is unclaimed", async () => {
  await using s = await scratch();
  const guard = s.guard();
  const { record } = await guard.cover();
  assert.equal(await guard.reclaim(), false, "a launcher that has not started yet may still");
  assert.equal(await guard.reclaim({ revokeUnclaimed: true }), true);
  assert.deepEqual(await s.names(), []);
  // The record was revoked: a launcher that starts now finds it taken and does not run.
  await assert.rejects(Deno.writeFile(record!, new Uint8Array(), { createNew: true }));
  await guard[Symbol.asyncDispose]();
});

Deno.test("PlaceholderGuard.cover() sees a protected path that changed since the last command", async () => {
  await using s = await scratch();
  await Deno.mkdir(join(s.ws, ".git"));
  await Deno.mkdir(join(s.ws, "elsewhere"));
  await using guard = s.guard();
  assert.deepEqual((await guard.cover()).existing, [join(s.ws, ".git")]);
  await Deno.remove(join(s.ws, ".git"));
  await Deno.symlink("elsewhere", join(s.ws, ".git"));
  assert.deepEqual((await guard.cover()).existing, [join(s.ws, "elsewhere")], "a link: its target");
  await Deno.remove(join(s.ws, ".git"));
  await placeholderAt(join(s.ws, ".git"));
  const cover = await guard.cover();
  assert.deepEqual(cover.existing, [], "another session's placeholder is adopted, not trusted");
  assert.ok(cover.placeholders.includes(join(s.ws, ".git")));
});

Deno.test("PlaceholderGuard.cover() binds a protected name made after the placeholders went", async () => {
  await using s = await scratch();
  await using guard = s.guard();
  assert.equal((await guard.cover()).placeholders.length, NAMES.length);
  assert.equal(await guard.reclaim({ revokeUnclaimed: true }), true);
  await Deno.mkdir(join(s.ws, ".agents"));
  const cover = await guard.cover();
  assert.deepEqual(cover.existing, [join(s.ws, ".agents")]);
  assert.ok(!cover.placeholders.includes(join(s.ws, ".agents")));
});

Deno.test("PlaceholderGuard.cover() binds other agents' setup names that exist and makes none for the rest", async () => {
  await using s = await scratch();
  const names = DEFAULT_PROTECTED_NAMES;
  await using guard = new PlaceholderGuard({ roots: [s.ws], names, recordDir: s.records });
  await Deno.mkdir(join(s.ws, ".claude"));
  await Deno.writeTextFile(join(s.ws, ".mcp.json"), "{}\n");
  const cover = await guard.cover();
  assert.deepEqual(cover.existing.sort(), [join(s.ws, ".claude"), join(s.ws, ".mcp.json")]);
  assert.deepEqual(cover.placeholders.sort(), NAMES.map((n) => join(s.ws, n)).sort());
  assert.deepEqual(await s.names(), [
    ".agents",
    ".claude",
    ".git",
    ".mcp.json",
    ".openinterpreter",
  ]);
});
