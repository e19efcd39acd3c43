import assert from "node:assert/strict";
import { hostileRepo, SECRET } from "./_hostile_repo.ts";
import { openGitRunner } from "./safe_git.ts";
import { join } from "node:path";
import { MAX_DIFF_CHARS, MAX_UNTRACKED_SHOWN, workingTreeDiff } from "./diff.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");

Deno.test({
  name: "/diff shows raw contents where a planted clean filter would print a host file" +
    BWRAP.note,
  ignore: BWRAP.ignore,
  async fn() {
    await using repo = await hostileRepo("filter");
    assert.match(await repo.hostGit("diff", "HEAD"), new RegExp(SECRET), "control");
    await repo.clearMarker();

    await using git = await openGitRunner({ env: repo.env });
    const diff = await workingTreeDiff(git, repo.dir, () => false);
    assert.match(diff, /^ hello\n\+more$/m);
    assert.match(diff, /^\+untracked$/m);
    assert.doesNotMatch(diff, new RegExp(SECRET));
    assert.equal(await repo.planted(), false);
  },
});

Deno.test("/diff of a plain repository is git diff HEAD plus each untracked file", async () => {
  await using repo = await hostileRepo("none");
  const expected = (await repo.hostGit("diff", "HEAD", "--no-color")) +
    (await repo.hostGit("diff", "--no-index", "--no-color", "--", "/dev/null", "u.txt"));

  await using git = await openGitRunner({ env: repo.env });
  assert.equal(await workingTreeDiff(git, repo.dir, () => false), expected);
  assert.match(expected, /^\+more$/m);
});

Deno.test("/diff of many untracked files shows the first ones as added and names the rest", async () => {
  await using repo = await hostileRepo("none");
  const count = MAX_UNTRACKED_SHOWN + 3;
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(join(repo.dir, `n${String(i).padStart(3, "0")}.txt`), `new ${i}\n`);
  }
  await using git = await openGitRunner({ env: repo.env });
  const diff = await workingTreeDiff(git, repo.dir, () => false);
  // n000..n049 are shown (git lists them sorted), n050..n052 and u.txt are named.
  assert.equal((diff.match(/^\+\+\+ b\/(n\d+|u)\.txt$/gm) ?? []).length, MAX_UNTRACKED_SHOWN);
  assert.match(diff, /^\+new 49$/m);
  assert.doesNotMatch(diff, /^\+new 50$/m);
  assert.match(
    diff,
    /^… 4 more untracked files not shown as added: n050\.txt, n051\.txt, n052\.txt, u\.txt\n$/m,
  );
});

Deno.test("/diff past its size stops at a file's boundary and says how to read the rest", async () => {
  await using repo = await hostileRepo("none");
  const line = "x".repeat(99) + "\n";
  const big = line.repeat(Math.ceil(MAX_DIFF_CHARS * 0.6 / line.length));
  for (const name of ["a_big.txt", "b_big.txt"]) {
    await Deno.writeTextFile(join(repo.dir, name), big);
    await repo.hostGit("add", name);
  }
  await using git = await openGitRunner({ env: repo.env });
  const diff = await workingTreeDiff(git, repo.dir, () => false);
  assert.ok(diff.length < MAX_DIFF_CHARS + 200);
  assert.match(diff, /^\+\+\+ b\/a_big\.txt$/m);
  assert.doesNotMatch(diff, /b_big\.txt/);
  // b_big.txt, f.txt and the untracked u.txt come after the cut.
  assert.match(
    diff,
    /^… [\d,]+ more characters of diff \(3 more files\) not shown: run git diff HEAD/m,
  );
});
