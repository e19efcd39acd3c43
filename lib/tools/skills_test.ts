import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import {
  parseSkillFile,
  plainFrontMatter,
  type SkillInfo,
  skillList,
  skillLoad,
  skillsListing,
} from "./skills.ts";
import { tempWorkspace } from "./_test_workspace.ts";

const skill = (name: string, description: string, body = `# ${name}\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

/**
 * A temp workspace holding two skills, `pdf` (its body takes `$ARGUMENTS`) and `lint`, which its
 * context offers as the session would (`ctx.skills`).
 */
async function skillWorkspace() {
  const ws = await tempWorkspace({
    "skills/pdf/SKILL.md": skill("pdf", "Read PDFs", "Use scripts/extract.py on $ARGUMENTS.\n"),
    "skills/lint/SKILL.md": skill("lint", "Lint the code"),
  });
  const info = (name: string, description: string): SkillInfo => ({
    name,
    description,
    dir: join(ws.dir, "skills", name),
    path: join(ws.dir, "skills", name, "SKILL.md"),
    scope: "repo",
  });
  const offered = [info("lint", "Lint the code"), info("pdf", "Read PDFs")];
  ws.ctx.skills = () => Promise.resolve(offered);
  return ws;
}

Deno.test("skillsListing() writes one line per skill", () => {
  const listing = skillsListing([
    { name: "a", description: "first", path: "/s/a/SKILL.md", dir: "/s/a", scope: "repo" },
    { name: "b", description: "second", path: "/s/b/SKILL.md", dir: "/s/b", scope: "user" },
  ]);
  assert.equal(listing, "- a: first (file: /s/a/SKILL.md)\n- b: second (file: /s/b/SKILL.md)");
  assert.equal(skillsListing([]), "");
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
  assert.deepEqual(broken, { meta: {}, body: "Body\n", invalidYaml: true }, "invalid YAML is told");
});

Deno.test("skillList() returns the skills the context offers and their listing", async () => {
  await using ws = await skillWorkspace();
  const out = await skillList.run({}, ws.ctx);
  assert.deepEqual(out.skills.map((s) => s.name), ["lint", "pdf"]);
  assert.equal(out.listing, skillsListing(out.skills));
});

Deno.test("skillLoad() returns the body with arguments applied and the skill folder", async () => {
  await using ws = await skillWorkspace();
  const pdf = await skillLoad.run({ name: "/pdf", args: "report.pdf" }, ws.ctx);
  assert.equal(pdf.body, "Use scripts/extract.py on report.pdf.");
  assert.equal(pdf.dir, join(ws.dir, "skills/pdf"));
  assert.equal(pdf.description, "Read PDFs");
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
      err.hint === "Available skills: lint, pdf",
  );
});

Deno.test("control: a context that offers no skills has none, whatever lies on disk", async () => {
  await using ws = await skillWorkspace();
  delete ws.ctx.skills;
  assert.deepEqual((await skillList.run({}, ws.ctx)).skills, []);
  await assert.rejects(
    () => skillLoad.run({ name: "pdf" }, ws.ctx),
    (err) => err instanceof ToolError && /No skills are installed/.test(err.hint ?? ""),
  );
});

Deno.test("plainFrontMatter() reads simple front matter as the YAML parser does, and leaves the rest to it", async () => {
  const { parse } = await import("yaml");
  const simple = [
    "name: pdf\ndescription: Fill in PDF forms, and read them",
    'name: a-b\ndescription: Uses [brackets] {braces}, commas and "quotes" inside\nlicense: MIT',
    "name: x\ndescription: yes or no\ncompatibility: Claude Code, on or off  ",
    "name: x\r\ndescription: ends with a colon:",
  ];
  for (const text of simple) {
    const fast = plainFrontMatter(text);
    assert.ok(fast, text);
    const yaml = parse(text.replace(/ends with a colon:/, '"ends with a colon:"'));
    assert.deepEqual(
      fast,
      Object.fromEntries(Object.entries(yaml).map(([k, v]) => [k, String(v)])),
    );
  }
  // Control: what YAML would read as something else than the text as written.
  const other = [
    "name: x\nversion: 1.0",
    "name: x\nenabled: true",
    "name: x\nnothing: null",
    "name: x\ndescription: text # a comment",
    "name: x\ndescription: 'quoted'",
    "name: x\ntags:\n  - a",
    "name: x\ndescription: has: a colon",
    "name: x\nname: y",
    "name: x\n\ndescription: after a blank line",
    "name: x\ndescription: >\n  folded",
    "name: x\nempty:",
  ];
  for (const text of other) assert.equal(plainFrontMatter(text), undefined, text);
});
