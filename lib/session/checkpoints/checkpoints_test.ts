/**
 * Checkpoints on real folders: a git work tree (listed by safe git, ignored files left out) and
 * a plain folder; undo and rewind of files a command wrote, the user's own changes kept unless
 * confirmed, the edit tool's history for files the snapshot does not cover.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Message } from "../../model/message.ts";
import type { SessionRecordInput } from "../../store/mod.ts";
import { EDIT_HISTORY_KEY } from "../../tools/_edit_history.ts";
import { findGitRoot } from "../../workspace/git_root.ts";
import { repoGit } from "../../workspace/repo_git.ts";
import { openGitRunner } from "../../workspace/safe_git.ts";
import { parseRecord } from "./_checkpoint_records.ts";
import { restoreWriterOpener } from "./_restore_writer.ts";
import { NOTHING_RUNNING } from "../_running_work.ts";
import { Checkpoints } from "./checkpoints.ts";
import { need } from "../../../sandbox/_test_requires.ts";

const HAS_BWRAP = (await need("bwrap")).ok;
const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: "/nonexistent" };

async function git(cwd: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.ok(out.success, `git ${args.join(" ")}`);
}

/** A temp folder with `files`, a git repository when `repo`, and checkpoints over it. */
async function workspace(files: Record<string, string>, opts: { repo: boolean }) {
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_checkpoints_" }));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(cwd, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(cwd, name), text);
  }
  if (opts.repo) {
    await git(cwd, "init", "-q");
    await git(cwd, "add", ".");
    await git(cwd, "commit", "-qm", "init");
  }
  const runner = await openGitRunner({ env: ENV });
  const records: SessionRecordInput[] = [];
  const warnings: string[] = [];
  const messages: Message[] = [];
  const toolState = new Map<string, unknown>();
  const checkpoints = new Checkpoints({
    cwd,
    loop: { model: "m", system: [], messages, usage: {} as never },
    toolState,
    recorder: { file: undefined, append: (e) => records.push(e), flush: () => Promise.resolve() },
    sources: {
      gitRoot: () => findGitRoot(cwd),
      repoGit: (args) => repoGit({ git: runner, isHeldBack: () => false }, cwd, args),
    },
    warn: (message) => warnings.push(message),
    openWriter: restoreWriterOpener({ mode: "workspace-write", bwrap: HAS_BWRAP }),
    running: NOTHING_RUNNING,
  });
  /** Runs one turn whose "commands" are `act`, with a user prompt and an answer. */
  const turn = async (prompt: string, act: () => Promise<void>) => {
    await checkpoints.begin([{ type: "text", text: prompt }]);
    messages.push({ role: "user", blocks: [{ type: "text", text: prompt }] });
    await act();
    messages.push({ role: "assistant", blocks: [{ type: "text", text: `did ${prompt}` }], ...END });
    await checkpoints.end();
  };
  return {
    cwd,
    checkpoints,
    records,
    warnings,
    messages,
    toolState,
    turn,
    read: (name: string) => Deno.readTextFile(join(cwd, name)).catch(() => undefined),
    write: (name: string, text: string) => Deno.writeTextFile(join(cwd, name), text),
    async [Symbol.asyncDispose]() {
      await checkpoints[Symbol.asyncDispose]();
      await runner[Symbol.asyncDispose]();
      await Deno.remove(cwd, { recursive: true });
    },
  };
}

const END = {
  stop: "end_turn" as const,
  usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
};
const never = () => Promise.reject(new Error("confirm must not be asked"));

for (const repo of [true, false]) {
  Deno.test(`undo restores what a turn's commands changed (${repo ? "git" : "plain folder"})`, async () => {
    await using ws = await workspace({ "a.txt": "one\n", "b.txt": "bee\n", "sub/c.txt": "c\n" }, {
      repo,
    });
    await ws.turn("first", () => ws.write("a.txt", "two\n"));
    await ws.turn("second", async () => {
      await ws.write("a.txt", "three\n");
      await ws.write("made.txt", "x\n");
      await Deno.remove(join(ws.cwd, "b.txt"));
      await Deno.chmod(join(ws.cwd, "sub/c.txt"), 0o755);
    });
    const list = await ws.checkpoints.list();
    assert.deepEqual(list.turns.map((t) => [t.turn, t.prompt, t.files]), [
      [1, "first", ["a.txt"]],
      [2, "second", ["a.txt", "b.txt", "made.txt", "sub/c.txt"]],
    ]);
    assert.deepEqual(list.notes, []);

    const undone = await ws.checkpoints.undo(never);
    assert.deepEqual(undone.restored, ["a.txt", "b.txt", "sub/c.txt"]);
    assert.deepEqual(undone.removed, ["made.txt"]);
    assert.equal(undone.turnsRemoved, 1);
    assert.equal(await ws.read("a.txt"), "two\n");
    assert.equal(await ws.read("b.txt"), "bee\n");
    assert.equal(await ws.read("made.txt"), undefined);
    assert.equal((await Deno.stat(join(ws.cwd, "sub/c.txt"))).mode! & 0o777, 0o644);
    assert.equal(ws.messages.length, 2, "the second turn is out of the conversation");
    assert.deepEqual((await ws.checkpoints.list()).turns.map((t) => t.prompt), ["first"]);
    assert.deepEqual(ws.warnings, []);
    const phases = ws.records.map((r) => r.type === "checkpoint" ? r.checkpoint.phase : r.type);
    assert.deepEqual(phases, ["start", "end", "start", "end", "rewind"]);
  });
}

Deno.test("rewind asks before overwriting a file the user changed, and keeps it on no", async () => {
  await using ws = await workspace({ "a.txt": "one\n", "b.txt": "bee\n" }, { repo: true });
  await ws.turn("edit both", async () => {
    await ws.write("a.txt", "agent a\n");
    await ws.write("b.txt", "agent b\n");
  });
  await ws.turn("talk", () => Promise.resolve());
  await ws.write("a.txt", "mine\n");
  const asked: string[][] = [];
  const no = await ws.checkpoints.rewind(1, { code: true, conversation: false }, (files) => {
    asked.push(files);
    return Promise.resolve(false);
  });
  assert.deepEqual(asked, [["a.txt"]]);
  assert.deepEqual([no.restored, no.kept, no.turnsRemoved], [["b.txt"], ["a.txt"], 0]);
  assert.equal(await ws.read("a.txt"), "mine\n");
  assert.equal(await ws.read("b.txt"), "bee\n");
  assert.equal(ws.messages.length, 4, "code only: the conversation stays");

  // What the rewind wrote counts as left by the agent: only the user's file is asked about.
  const yes = await ws.checkpoints.rewind(1, { code: true, conversation: true }, (files) => {
    asked.push(files);
    return Promise.resolve(true);
  });
  assert.deepEqual(asked, [["a.txt"], ["a.txt"]]);
  assert.deepEqual([yes.restored, yes.turnsRemoved], [["a.txt"], 2]);
  assert.equal(await ws.read("a.txt"), "one\n");
  assert.deepEqual(ws.messages, []);
});

Deno.test("a conversation-only rewind leaves the files as they are", async () => {
  await using ws = await workspace({ "a.txt": "one\n" }, { repo: true });
  await ws.turn("first", () => ws.write("a.txt", "two\n"));
  await ws.turn("second", () => ws.write("a.txt", "three\n"));
  const result = await ws.checkpoints.rewind(2, { code: false, conversation: true }, never);
  assert.deepEqual([result.restored, result.turnsRemoved], [[], 1]);
  assert.equal(await ws.read("a.txt"), "three\n");
  assert.deepEqual(ws.messages.map((m) => m.role), ["user", "assistant"]);
  // The rewound turn's change stays what the agent left: undoing turn 1 asks nothing.
  await ws.checkpoints.undo(never);
  assert.equal(await ws.read("a.txt"), "one\n");
});

Deno.test("ignored files are not snapshotted, but the edit tool's changes to them are", async () => {
  await using ws = await workspace({ ".gitignore": "*.log\n", "keep.log": "old\n" }, {
    repo: true,
  });
  const log = join(ws.cwd, "keep.log");
  await ws.turn("edit", async () => {
    await ws.write("keep.log", "new\n");
    await ws.write("other.log", "ignored\n");
    ws.toolState.set(EDIT_HISTORY_KEY, { [log]: [{ before: "old\n", real: log }] });
  });
  const [turn] = (await ws.checkpoints.list()).turns;
  assert.deepEqual(turn.files, ["keep.log"]);
  await ws.checkpoints.undo(never);
  assert.equal(await ws.read("keep.log"), "old\n");
  assert.equal(await ws.read("other.log"), "ignored\n");
});

Deno.test("a turn compacted away can have its code restored but not its conversation", async () => {
  await using ws = await workspace({ "a.txt": "one\n" }, { repo: true });
  await ws.turn("first", () => Promise.resolve());
  await ws.turn("second", () => ws.write("a.txt", "two\n"));
  ws.messages.splice(0, ws.messages.length, {
    role: "user",
    blocks: [{ type: "text", text: "s" }],
  });
  const [, second] = (await ws.checkpoints.list()).turns;
  assert.match(second.noConversation ?? "", /compacted/);
  await assert.rejects(
    ws.checkpoints.rewind(2, { code: true, conversation: true }, never),
    /Cannot take turn 2 out of the conversation/,
  );
  assert.equal(await ws.read("a.txt"), "two\n", "nothing is restored when it is refused");
  await ws.checkpoints.rewind(2, { code: true, conversation: false }, never);
  assert.equal(await ws.read("a.txt"), "one\n");
});

Deno.test("a restore does not write through a folder replaced by a symlink", async () => {
  await using ws = await workspace({ "sub/a.txt": "one\n" }, { repo: true });
  const outside = await Deno.makeTempDir({ prefix: "oi_outside_" });
  try {
    await ws.turn("edit", () => ws.write("sub/a.txt", "two\n"));
    await Deno.remove(join(ws.cwd, "sub"), { recursive: true });
    await Deno.symlink(outside, join(ws.cwd, "sub"));
    const result = await ws.checkpoints.rewind(
      1,
      { code: true, conversation: false },
      () => Promise.resolve(true),
    );
    assert.match(result.failed[0]?.why ?? "", /symbolic link/);
    assert.deepEqual([...Deno.readDirSync(outside)], []);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a checkpoint record naming a path outside the workspace or a protected one is refused", () => {
  const state = { sha: "0".repeat(64), mode: 0o644 };
  const paths = [
    "../x",
    "/etc/passwd",
    "a/../../x",
    "a//b",
    ".git/config",
    "b/.git/x",
    ".agents/x",
  ];
  for (const path of [...paths, ".openinterpreter/config.toml"]) {
    const parsed = parseRecord({
      phase: "rewind",
      turn: 1,
      code: true,
      conversation: false,
      wrote: { [path]: state },
    });
    assert.ok("error" in parsed, path);
  }
  const ok = parseRecord({
    phase: "end",
    turn: 1,
    files: { "a/b.txt": { before: null, after: state } },
  });
  assert.ok("record" in ok);
  const malformed = parseRecord({
    phase: "end",
    turn: 1,
    files: { "a.txt": { before: { sha: "x" } } },
  });
  assert.ok("error" in malformed);
});
