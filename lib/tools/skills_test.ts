import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { discoverSkills, parseSkillFile, skillList, skillLoad, skillsListing } from "./skills.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

const skill = (name: string, description: string, body = `# ${name}\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

/**
 * A workspace laid out as: `proj/` (git root) with `proj/sub/` as cwd, an `oi/` interpreter
 * home and a `user/` home directory, each with skills.
 */
async function skillWorkspace() {
  const ws = await tempWorkspace({
    "proj/.git/HEAD": "ref: refs/heads/main\n",
    "proj/.agents/skills/deploy/SKILL.md": skill("deploy", "root deploy"),
    "proj/.agents/skills/group/lint/SKILL.md": skill("lint", "Lint the code"),
    "proj/sub/.agents/skills/deploy/SKILL.md": skill("deploy", "nearest deploy"),
    "proj/.codex/skills/review/SKILL.md": skill("review", "codex review"),
    "user/.agents/skills/notes/SKILL.md": skill("notes", "user notes"),
    "oi/skills/pdf/SKILL.md": skill(
      "pdf",
      "'Read PDFs, it''s fast'",
      "Use scripts/extract.py on $ARGUMENTS.\n",
    ),
    "oi/skills/broken/SKILL.md": "no front matter here\n",
    "oi/skills/.system/pdf/SKILL.md": skill("pdf", "bundled pdf"),
    "oi/skills/.system/creator/SKILL.md": skill("creator", "Make new skills"),
    "outside/.agents/skills/far/SKILL.md": skill("far", "above the project root"),
  });
  ws.ctx.cwd = join(ws.dir, "proj", "sub");
  ws.ctx.home = join(ws.dir, "oi");
  ws.ctx.env.HOME = join(ws.dir, "user");
  return ws;
}

Deno.test("discoverSkills() searches every root and lets the nearest scope win", async () => {
  await using ws = await skillWorkspace();
  const skills = await discoverSkills(ws.ctx.cwd, ws.ctx.home, {
    userHome: ws.ctx.env.HOME,
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
  assert.equal(deploy.dir, join(ws.dir, "proj/sub/.agents/skills/deploy"));
  assert.equal(deploy.path, join(deploy.dir, "SKILL.md"));
  assert.equal(
    skillsListing(skills.slice(0, 1)),
    `- creator: Make new skills (file: ${join(ws.dir, "oi/skills/.system/creator/SKILL.md")})`,
  );
  assert.deepEqual(
    await discoverSkills(join(ws.dir, "outside/x"), undefined, { fs: inProcessFs }),
    [],
  );
});

Deno.test("parseSkillFile() reads quoted and block values and skips nested maps", async () => {
  const parsed = await parseSkillFile(
    '---\nname: "a-b"\ndescription: >\n  Folded\n  text\nmetadata:\n  author: me\n' +
      "license: MIT # comment\nnotes: |\n  one\n  two\nversion: 2\ntags: [x, y]\n---\n\nBody\n",
  );
  assert.deepEqual(parsed, {
    meta: {
      name: "a-b",
      description: "Folded text",
      license: "MIT",
      notes: "one\ntwo",
      version: "2",
    },
    body: "Body\n",
  });
  assert.equal(await parseSkillFile("# no front matter"), undefined);
});

Deno.test("parseSkillFile() follows YAML where a line-based reading would not", async () => {
  const parsed = await parseSkillFile(
    "---\nname: 'it''s'\ndescription: \"tab\\there\" # note\nsummary: first\n  second\n" +
      "base: &b shared\nalias: *b\n---\nBody\n",
  );
  assert.deepEqual(parsed?.meta, {
    name: "it's",
    description: "tab\there",
    summary: "first second",
    base: "shared",
    alias: "shared",
  });
  const notMap = await parseSkillFile("---\n- a list\n---\nBody\n");
  assert.deepEqual(notMap, { meta: {}, body: "Body\n" });
});

Deno.test("parseSkillFile() reads a plain value holding ': ' as the rest of its line", async () => {
  const parsed = await parseSkillFile(
    "---\nname: pdf\ndescription: Read PDFs. Use when: the user asks # why\n---\nBody\n",
  );
  assert.deepEqual(parsed?.meta, {
    name: "pdf",
    description: "Read PDFs. Use when: the user asks",
  });
  const broken = await parseSkillFile("---\nname: [unclosed\ndescription: d\n---\nBody\n");
  assert.deepEqual(broken, { meta: {}, body: "Body\n" }, "invalid YAML gives no metadata");
});

Deno.test("skillList() returns the skills and their listing", async () => {
  await using ws = await skillWorkspace();
  const out = await skillList.run({}, ws.ctx);
  assert.equal(out.skills.length, 6);
  assert.equal(out.listing.split("\n").length, 6);
  assert.match(out.listing, /^- deploy: nearest deploy \(file: .*proj\/sub\/.agents/m);
});

Deno.test("skillLoad() returns the body with arguments applied and the skill folder", async () => {
  await using ws = await skillWorkspace();
  const pdf = await skillLoad.run({ name: "/pdf", args: "report.pdf" }, ws.ctx);
  assert.equal(pdf.body, "Use scripts/extract.py on report.pdf.");
  assert.equal(pdf.dir, join(ws.dir, "oi/skills/pdf"));
  const lint = await skillLoad.run({ name: "lint", args: "--fix" }, ws.ctx);
  assert.equal(lint.body, "# lint\n\nARGUMENTS: --fix");
  const plain = await skillLoad.run({ name: "$lint" }, ws.ctx);
  assert.equal(plain.body, "# lint");
});

Deno.test("skillLoad() names the available skills when the name is unknown", async () => {
  await using ws = await skillWorkspace();
  await assert.rejects(
    () => skillLoad.run({ name: "nope" }, ws.ctx),
    (err) =>
      err instanceof ToolError && err.message === 'Unknown skill "nope"' &&
      err.hint === "Available skills: creator, deploy, lint, notes, pdf, review",
  );
  await using empty = await tempWorkspace();
  await assert.rejects(
    () => skillLoad.run({ name: "nope" }, empty.ctx),
    (err) => err instanceof ToolError && /No skills are installed/.test(err.hint ?? ""),
  );
});
