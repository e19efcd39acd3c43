import assert from "node:assert/strict";
import { join } from "node:path";
import { indexEntries, startupStatus, STATUS_MAX_TRACKED } from "./_git_index.ts";
import type { GitRunner } from "./safe_git.ts";

async function git(cwd: string, args: string[], input?: string): Promise<string> {
  const child = new Deno.Command("git", {
    args,
    cwd,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const out = await child.output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** A repository whose index tracks `count` files (one blob, no work tree files). */
async function repoTracking(count: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "git_index_test_" });
  await git(dir, ["init", "-q"]);
  const blob = await git(dir, ["hash-object", "-w", "--stdin"], "x\n");
  const lines = Array.from({ length: count }, (_, i) => `100644 ${blob}\tf/${i}\n`).join("");
  await git(dir, ["update-index", "--index-info"], lines);
  return dir;
}

/** A runner that records what it was asked to run and answers like a clean status. */
function recordingRunner(calls: string[][]): GitRunner {
  return {
    run: (args) => {
      calls.push(args);
      return Promise.resolve({ ok: true, stdout: "## main\n" });
    },
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
}

Deno.test("a repository tracking more files than the limit gets no start-up git status", async () => {
  const dir = await repoTracking(STATUS_MAX_TRACKED + 1);
  try {
    assert.deepEqual(await indexEntries(dir), STATUS_MAX_TRACKED + 1);
    const calls: string[][] = [];
    const result = await startupStatus(recordingRunner(calls), dir, dir, ["status", "--short"]);
    assert.deepEqual(calls, []);
    assert.deepEqual(result.ok, false);
    assert.match(
      result.skipped ?? "",
      /^20,001 tracked files make it slow at start-up; run git status/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a repository at the limit runs git status as usual", async () => {
  const dir = await repoTracking(STATUS_MAX_TRACKED);
  try {
    const calls: string[][] = [];
    const result = await startupStatus(recordingRunner(calls), dir, dir, ["status", "--short"]);
    assert.deepEqual(calls, [["status", "--short"]]);
    assert.deepEqual(result, { ok: true, stdout: "## main\n" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an index that is a link, or a repository with none yet, is not counted", async () => {
  const big = await repoTracking(STATUS_MAX_TRACKED + 1);
  const linked = await Deno.makeTempDir({ prefix: "git_index_test_" });
  try {
    await git(linked, ["init", "-q"]);
    assert.deepEqual(await indexEntries(linked), undefined);
    await Deno.symlink(join(big, ".git", "index"), join(linked, ".git", "index"));
    assert.deepEqual(await indexEntries(linked), undefined);
    const calls: string[][] = [];
    await startupStatus(recordingRunner(calls), linked, linked, ["status"]);
    assert.deepEqual(calls, [["status"]]);
  } finally {
    await Deno.remove(big, { recursive: true });
    await Deno.remove(linked, { recursive: true });
  }
});
