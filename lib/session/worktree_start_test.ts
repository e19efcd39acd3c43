import assert from "node:assert/strict";
import { join } from "node:path";
import { TRUST_SOURCE_ENV } from "../config/trust_store.ts";
import { UserError } from "../errors.ts";
import { backToWorktree, intoNewWorktree, worktreeAt } from "./worktree_start.ts";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const env = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com" };
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("a bad worktree name is refused before anything is made, naming the rule", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi_wt_home_" });
  try {
    await assert.rejects(
      () => intoNewWorktree({ cwd: home }, "../escape", { HOME: home }),
      (error: unknown) =>
        error instanceof UserError && error.exitCode === 2 &&
        /"\.\.\/escape" is not a valid worktree name/.test(error.message) &&
        /letters, digits/.test(error.hint ?? ""),
    );
    assert.equal(await Deno.stat(join(home, "worktrees")).catch(() => undefined), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("resume goes back into a session's worktree, or notes that it is gone", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi_wt_home_" });
  const repo = await Deno.makeTempDir({ prefix: "oi_wt_repo_" });
  try {
    await git(repo, "init", "-q");
    await Deno.writeTextFile(join(repo, "a.txt"), "a\n");
    await git(repo, "add", ".");
    await git(repo, "commit", "-qm", "init");
    const path = join(home, "worktrees", "repo-12345678", "team", "fix");
    await git(repo, "worktree", "add", "-q", "-b", "worktree-team-fix", path);
    const wt = await worktreeAt(home, path);
    assert.equal(wt?.name, "team/fix");
    assert.equal(wt?.branch, "worktree-team-fix");
    assert.equal(await worktreeAt(home, repo), undefined, "the main tree is no worktree");

    const back = await backToWorktree({ cwd: repo, writableRoots: ["/extra"] }, path, home);
    assert.ok("config" in back);
    assert.equal(back.config.cwd, path);
    assert.ok(back.config.writableRoots!.includes(wt!.adminDir));
    assert.ok(back.config.writableRoots!.includes(join(repo, ".git", "objects")));
    assert.ok(back.config.writableRoots!.includes("/extra"));
    assert.deepEqual(back.env, { [TRUST_SOURCE_ENV]: repo });
    assert.equal(back.worktree, `team/fix (branch worktree-team-fix) at ${path}`);

    await git(repo, "worktree", "remove", path);
    const gone = await backToWorktree({ cwd: repo }, path, home);
    assert.ok("notes" in gone);
    assert.match(
      gone.notes[0],
      /made in worktree .*fix, which is gone \(removed\); it goes on in /,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});
