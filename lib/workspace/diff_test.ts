import assert from "node:assert/strict";
import { hostileRepo, SECRET } from "./_hostile_repo.ts";
import { openGitRunner } from "./safe_git.ts";
import { workingTreeDiff } from "./diff.ts";
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
