import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import buildInfo from "./_build_info.json" with { type: "json" };
import { gitCommit, readGitCommit, VERSION } from "./version.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const A = "0123456789abcdef0123456789abcdef01234567";
const B = "89abcdef0123456789abcdef0123456789abcdef";

/** A temp directory laid out from a map of relative paths to file contents. */
async function tempTree(files: Record<string, string>): Promise<string & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "version_test_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return Object.assign(dir, {
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  }) as string & AsyncDisposable;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("VERSION is the version field of deno.json", async () => {
  const denoJson = JSON.parse(await Deno.readTextFile(`${REPO}/deno.json`));
  assert.equal(VERSION, denoJson.version);
  assert.match(VERSION, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
});

Deno.test("readGitCommit() follows HEAD to a loose ref", async () => {
  await using dir = await tempTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/refs/heads/main": `${A}\n`,
    ".git/packed-refs": `${B} refs/heads/main\n`,
  });
  assert.equal(await readGitCommit(String(dir)), A);
});

Deno.test("readGitCommit() falls back to packed-refs when the ref has no loose file", async () => {
  await using dir = await tempTree({
    ".git/HEAD": "ref: refs/heads/feature/x\n",
    ".git/packed-refs": `# pack-refs with: peeled fully-peeled sorted\n${A} refs/heads/main\n` +
      `${B} refs/heads/feature/x\n^${A}\n`,
  });
  assert.equal(await readGitCommit(String(dir)), B);
});

Deno.test("readGitCommit() reads a detached HEAD", async () => {
  await using dir = await tempTree({ ".git/HEAD": `${B}\n` });
  assert.equal(await readGitCommit(String(dir)), B);
});

Deno.test("readGitCommit() follows a .git file to a linked worktree and its common dir", async () => {
  await using dir = await tempTree({
    "main/.git/refs/heads/topic": `${A}\n`,
    "main/.git/worktrees/wt/HEAD": "ref: refs/heads/topic\n",
    "main/.git/worktrees/wt/commondir": "../..\n",
    "wt/.git": "gitdir: ../main/.git/worktrees/wt\n",
  });
  assert.equal(await readGitCommit(`${dir}/wt`), A);
});

Deno.test("readGitCommit() is undefined without a repository, a commit or a valid hash", async () => {
  await using dir = await tempTree({
    "unborn/.git/HEAD": "ref: refs/heads/main\n",
    "garbage/.git/HEAD": "not a hash\n",
    "plain/file.txt": "",
  });
  for (const sub of ["unborn", "garbage", "plain", "missing"]) {
    assert.equal(await readGitCommit(`${dir}/${sub}`), undefined, sub);
  }
});

Deno.test("readGitCommit() agrees with git rev-parse, before and after git pack-refs", async () => {
  await using dir = await tempTree({ "a.txt": "a\n" });
  const repo = String(dir);
  await git(repo, "init", "-q", "-b", "main");
  await git(repo, "add", "a.txt");
  await git(repo, "commit", "-qm", "a");
  const expected = await git(repo, "rev-parse", "HEAD");
  assert.equal(await readGitCommit(repo), expected);
  await git(repo, "pack-refs", "--all", "--prune");
  assert.equal(await readGitCommit(repo), expected);
});

Deno.test("gitCommit() is the checkout's short commit, or unknown, when no build info is baked", async () => {
  assert.equal(buildInfo.commit, "", "lib/_build_info.json must be committed as a placeholder");
  const full = await readGitCommit(REPO);
  assert.equal(await gitCommit(), full ? full.slice(0, 12) : "unknown");
});
