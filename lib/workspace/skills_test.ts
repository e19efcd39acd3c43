import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { discoverSkills } from "./skills.ts";

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

/**
 * A temp folder laid out as: `proj/` (git root) with `proj/sub/` as cwd, an `oi/` interpreter
 * home and a `user/` home directory, each with skills; removed on dispose.
 */
async function skillTree() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_skills_" }));
  const files: Record<string, string> = {
    "proj/.git/HEAD": "ref: refs/heads/main\n",
    "proj/.agents/skills/deploy/SKILL.md": skill("deploy", "root deploy"),
    "proj/.agents/skills/group/lint/SKILL.md": skill("lint", "Lint the code"),
    "proj/sub/.agents/skills/deploy/SKILL.md": skill("deploy", "nearest deploy"),
    "proj/.codex/skills/review/SKILL.md": skill("review", "codex review"),
    "user/.agents/skills/notes/SKILL.md": skill("notes", "user notes"),
    "oi/skills/pdf/SKILL.md": skill("pdf", "'Read PDFs, it''s fast'"),
    "oi/skills/broken/SKILL.md": "no front matter here\n",
    "oi/skills/.system/pdf/SKILL.md": skill("pdf", "bundled pdf"),
    "oi/skills/.system/creator/SKILL.md": skill("creator", "Make new skills"),
    "outside/.agents/skills/far/SKILL.md": skill("far", "above the project root"),
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("discoverSkills() searches every root and lets the nearest scope win", async () => {
  await using t = await skillTree();
  const skills = await discoverSkills(join(t.dir, "proj", "sub"), {
    home: join(t.dir, "oi"),
    userHome: join(t.dir, "user"),
    fs: inProcessFs,
  });
  assert.deepEqual(
    skills.map((s) => [s.name, s.description, s.scope]),
    [
      ["creator", "Make new skills", "system"],
      ["deploy", "nearest deploy", "repo"],
      ["lint", "Lint the code", "repo"],
      ["notes", "user notes", "user"],
      ["pdf", "Read PDFs, it's fast", "user"],
      ["review", "codex review", "repo"],
    ],
  );
  const deploy = skills.find((s) => s.name === "deploy")!;
  assert.equal(deploy.dir, join(t.dir, "proj/sub/.agents/skills/deploy"));
  assert.equal(deploy.path, join(deploy.dir, "SKILL.md"));
});

Deno.test("discoverSkills() stops at the working directory outside a repository", async () => {
  await using t = await skillTree();
  assert.deepEqual(await discoverSkills(join(t.dir, "outside/x"), { fs: inProcessFs }), []);
  const inside = await discoverSkills(join(t.dir, "outside"), { fs: inProcessFs });
  assert.deepEqual(inside.map((s) => s.name), ["far"]);
});

Deno.test("discoverSkills() leaves out a held-back SKILL.md, and a lower scope's copy wins", async () => {
  await using t = await skillTree();
  const nearest = join(t.dir, "proj/sub/.agents/skills/deploy/SKILL.md");
  const skills = await discoverSkills(join(t.dir, "proj", "sub"), {
    fs: inProcessFs,
    isHeldBack: (path) => path === nearest,
  });
  assert.deepEqual(skills.find((s) => s.name === "deploy")?.description, "root deploy");
});
