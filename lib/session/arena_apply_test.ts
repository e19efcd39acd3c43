import assert from "node:assert/strict";
import { join } from "node:path";
import { isInsideGitFolder, isTrustRelevant, reviewPatch } from "./arena_apply.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");

Deno.test("isTrustRelevant() names config, setup and instruction files at any folder level", () => {
  const relevant = [
    ".openinterpreter/config.toml",
    "pkg/.agents/skills/x/SKILL.md",
    ".claude/anything.txt",
    "sub/.mcp.json",
    ".gitignore",
    ".github/workflows/ci.yml",
    "docs/.gitattributes",
    "web/CLAUDE.md",
    "a/b/.gemini/settings.json",
    "tools/.opencode/commands/go.md",
    ".codex/skills/s/SKILL.md",
    "opencode.jsonc",
    "x/AGENTS.override.md",
    "X/.CLAUDE/settings.json",
  ];
  const plain = ["src/main.ts", "AGENTS.md", "docs/claude.md.txt", "gitignore", "a/.mcp.json.bak"];
  assert.deepEqual(relevant.filter((path) => !isTrustRelevant(path)), []);
  assert.deepEqual(plain.filter(isTrustRelevant), []);
});

Deno.test("isInsideGitFolder() is true for .git itself and anything in one, at any level", () => {
  assert.deepEqual(
    [".git/config", "sub/.git/hooks/x", ".git", "a/.GIT/HEAD", ".github/x", ".gitignore"]
      .map(isInsideGitFolder),
    [true, true, true, true, false, false],
  );
});

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test({
  name:
    `reviewPatch() counts a rename's old name and refuses editing an existing link${BWRAP.note}`,
  ignore: BWRAP.ignore,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_arena_review_" }));
    try {
      await git(root, "init", "-q");
      await Deno.writeTextFile(join(root, ".mcp.json"), '{"mcpServers":{}}\n');
      await Deno.symlink("target.txt", join(root, "link"));
      await git(root, "add", "-A");
      await git(root, "commit", "-qm", "start");
      await git(root, "mv", ".mcp.json", "servers.json");
      await Deno.remove(join(root, "link"));
      await Deno.symlink("elsewhere.txt", join(root, "link"));
      await git(root, "add", "-A");
      const patchFile = join(root, "..", `${root.split("/").at(-1)}.diff`);
      await Deno.writeTextFile(patchFile, await git(root, "diff", "--cached", "--binary"));
      await git(root, "reset", "-q", "--hard");
      const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
      const review = await reviewPatch({ root, patchFile, env });
      await Deno.remove(patchFile);
      assert.deepEqual(review.files, [".mcp.json", "link", "servers.json"]);
      assert.deepEqual(review.protectedPaths, [".mcp.json"]);
      assert.deepEqual(review.refused, ["link (link is a symbolic link)"]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "reviewPatch() refuses to run git where no sandbox can confine it, saying why",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "oi_arena_review_" });
    try {
      const env = {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        OPENINTERPRETER_BWRAP: join(root, "no-bwrap-here"),
      };
      await assert.rejects(
        reviewPatch({ root, patchFile: join(root, "p.diff"), env }),
        /Cannot apply the patch: git applies it only inside the command sandbox, and /,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
