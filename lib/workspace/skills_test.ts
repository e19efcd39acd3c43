import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { SKILL_MAX_BYTES } from "../tools/skills.ts";
import { discoverSkills, skillProblem } from "./skills.ts";

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
    "user/.agents/skills/lint/SKILL.md": skill("lint", "the user's lint"),
    "user/.agents/skills/Bad_Name/SKILL.md": skill("Bad_Name", "breaks the name rules"),
    "user/.agents/skills/long/SKILL.md": skill("long", "x".repeat(1025)),
    "user/.agents/skills/yaml/SKILL.md": "---\nname: [unclosed\n---\nbody\n",
    "user/.agents/skills/yaml/nested/SKILL.md": skill("nested", "inside a broken skill"),
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

Deno.test("discoverSkills() searches every root, lets the nearest scope win and says so", async () => {
  await using t = await skillTree();
  const found = await discoverSkills(join(t.dir, "proj", "sub"), {
    home: join(t.dir, "oi"),
    userHome: join(t.dir, "user"),
    fs: inProcessFs,
  });
  assert.deepEqual(
    found.skills.map((s) => [s.name, s.description, s.scope]),
    [
      ["creator", "Make new skills", "system"],
      ["deploy", "nearest deploy", "repo"],
      ["lint", "Lint the code", "repo"],
      ["notes", "user notes", "user"],
      ["pdf", "Read PDFs, it's fast", "user"],
      ["review", "codex review", "repo"],
    ],
  );
  const deploy = found.skills.find((s) => s.name === "deploy")!;
  assert.equal(deploy.dir, join(t.dir, "proj/sub/.agents/skills/deploy"));
  assert.equal(deploy.path, join(deploy.dir, "SKILL.md"));
  const at = (path: string) => join(t.dir, path, "SKILL.md");
  assert.deepEqual(found.warnings, [
    `Skill "deploy": ${at("proj/sub/.agents/skills/deploy")} (repo) wins over ` +
    `${at("proj/.agents/skills/deploy")} (repo)`,
    `Skipped the skill ${at("user/.agents/skills/Bad_Name")}: the name "Bad_Name" may hold ` +
    "only lowercase letters, digits and single hyphens between them",
    `Skill "lint": ${at("proj/.agents/skills/group/lint")} (repo) wins over ` +
    `${at("user/.agents/skills/lint")} (user)`,
    `Skipped the skill ${at("user/.agents/skills/long")}: the description is 1025 characters ` +
    "long, over the 1024 allowed",
    `Skipped the skill ${at("user/.agents/skills/yaml")}: its front matter is not valid YAML`,
    `Skipped the skill ${at("oi/skills/broken")}: it does not start with --- front matter ---`,
    `Skill "pdf": ${at("oi/skills/pdf")} (user) wins over ${at("oi/skills/.system/pdf")} (system)`,
  ]);
});

Deno.test("skillProblem() checks the name, description and compatibility rules", () => {
  const meta = (name: string, more: Record<string, string> = {}) => ({
    name,
    description: "d",
    ...more,
  });
  for (const good of ["a", "pdf-2", "ü-x", "a".repeat(64)]) {
    assert.equal(skillProblem(meta(good)), undefined, good);
  }
  for (const bad of ["", "-a", "a-", "a--b", "A", "a_b", "a b", "a".repeat(65)]) {
    assert.ok(skillProblem(meta(bad)), `"${bad}" is refused`);
  }
  assert.equal(skillProblem({ name: "a" }), "its front matter has no description");
  assert.equal(skillProblem(meta("a", { description: "é".repeat(1024) })), undefined);
  assert.match(skillProblem(meta("a", { compatibility: "c".repeat(501) }))!, /compatibility/);
});

Deno.test("discoverSkills() stops at the working directory outside a repository", async () => {
  await using t = await skillTree();
  const below = await discoverSkills(join(t.dir, "outside/x"), { fs: inProcessFs });
  assert.deepEqual(below, { skills: [], warnings: [] });
  const inside = await discoverSkills(join(t.dir, "outside"), { fs: inProcessFs });
  assert.deepEqual(inside.skills.map((s) => s.name), ["far"]);
});

Deno.test("discoverSkills() in the home folder reads its .agents/skills once, as the repo's", async () => {
  await using t = await skillTree();
  const user = join(t.dir, "user");
  const found = await discoverSkills(user, { userHome: user, fs: inProcessFs });
  assert.deepEqual(found.skills.map((s) => [s.name, s.scope]), [["lint", "repo"], [
    "notes",
    "repo",
  ]]);
  assert.equal(found.warnings.length, 3, "the three broken skills, no clash with itself");
});

Deno.test("discoverSkills() leaves out a held-back SKILL.md, and a lower scope's copy wins", async () => {
  await using t = await skillTree();
  const nearest = join(t.dir, "proj/sub/.agents/skills/deploy/SKILL.md");
  const { skills, warnings } = await discoverSkills(join(t.dir, "proj", "sub"), {
    fs: inProcessFs,
    isHeldBack: (path) => path === nearest,
  });
  assert.deepEqual(skills.find((s) => s.name === "deploy")?.description, "root deploy");
  assert.deepEqual(warnings, [], "no clash with a held-back skill");
});

Deno.test({
  name: `discoverSkills() skips a SKILL.md linked to /dev/zero, a FIFO or one too large${
    Deno.build.os === "windows" ? " (SKIPPED: no /dev/zero)" : ""
  }`,
  ignore: Deno.build.os === "windows",
  async fn() {
    await using t = await skillTree();
    const proj = join(t.dir, "proj");
    const at = (path: string) => join(proj, path, "SKILL.md");
    for (const dir of [".agents/skills/zero", ".codex/skills/zero"]) {
      await Deno.mkdir(join(proj, dir), { recursive: true });
      await Deno.symlink("/dev/zero", at(dir));
    }
    await Deno.mkdir(join(proj, ".agents/skills/pipe"));
    const fifo = await new Deno.Command("mkfifo", { args: [at(".agents/skills/pipe")] }).output();
    assert.ok(fifo.success, "mkfifo made the FIFO");
    await Deno.mkdir(join(proj, ".agents/skills/huge"));
    const huge = skill("huge", "too large") + "x".repeat(SKILL_MAX_BYTES);
    await Deno.writeTextFile(at(".agents/skills/huge"), huge);
    const started = Date.now();
    const found = await discoverSkills(proj, { fs: inProcessFs });
    assert.ok(Date.now() - started < 5_000, "discovered in seconds");
    // Control: the project's regular skills are listed.
    assert.deepEqual(found.skills.map((s) => s.name), ["deploy", "lint", "review"]);
    assert.deepEqual(found.warnings.filter((w) => !w.startsWith("Skill ")), [
      `Skipped the skill ${at(".agents/skills/huge")}: it is over the 1 MiB a SKILL.md may have`,
      `Skipped the skill ${
        at(".agents/skills/pipe")
      }: it is a FIFO (named pipe), not a regular file`,
      `Skipped the skill ${
        at(".agents/skills/zero")
      }: it is a character device, not a regular file`,
      `Skipped the skill ${at(".codex/skills/zero")}: it is a character device, not a regular file`,
    ]);
  },
});

Deno.test("discoverSkills() skips a project's SKILL.md that links outside the project", async () => {
  await using t = await skillTree();
  const proj = join(t.dir, "proj");
  await Deno.mkdir(join(proj, ".agents/skills/away"));
  await Deno.symlink(
    join(t.dir, "user/.agents/skills/notes/SKILL.md"),
    join(proj, ".agents/skills/away/SKILL.md"),
  );
  // Control: a link that stays inside the project loads.
  await Deno.mkdir(join(proj, ".agents/skills/near"));
  await Deno.mkdir(join(proj, "docs"));
  await Deno.writeTextFile(join(proj, "docs/near.md"), skill("near", "kept inside"));
  await Deno.symlink("../../../docs/near.md", join(proj, ".agents/skills/near/SKILL.md"));
  const found = await discoverSkills(proj, { fs: inProcessFs });
  assert.deepEqual(found.skills.map((s) => s.name), ["deploy", "lint", "near", "review"]);
  assert.deepEqual(found.warnings, [
    `Skipped the skill ${join(proj, ".agents/skills/away/SKILL.md")}: it leads through a link ` +
    `to ${join(t.dir, "user/.agents/skills/notes/SKILL.md")}, outside the project ${proj}`,
  ]);
  // The user's own skills may link anywhere.
  const user = await discoverSkills(join(t.dir, "outside"), {
    userHome: proj,
    fs: inProcessFs,
  });
  assert.ok(user.skills.some((s) => s.name === "notes" && s.scope === "user"));
});

Deno.test("discoverSkills() finds the project root by project_root_markers, as AGENTS.md does", async () => {
  await using t = await skillTree();
  const cwd = join(t.dir, "outside/x");
  await Deno.mkdir(cwd, { recursive: true });
  await Deno.writeTextFile(join(t.dir, "outside/.hg"), "");
  const marked = await discoverSkills(cwd, { fs: inProcessFs, rootMarkers: [".hg", ".git"] });
  assert.deepEqual(marked.skills.map((s) => s.name), ["far"]);
  // The control: with the default marker (.git) the folder is no project root.
  const plain = await discoverSkills(cwd, { fs: inProcessFs });
  assert.deepEqual(plain.skills, []);
  // No markers at all: only the working directory counts, even inside a repository.
  const none = await discoverSkills(join(t.dir, "proj/sub"), { fs: inProcessFs, rootMarkers: [] });
  assert.deepEqual(none.skills.map((s) => s.name), ["deploy"]);
  assert.equal(none.skills[0].description, "nearest deploy");
});
