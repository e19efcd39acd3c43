import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { validateScript } from "../../tests/fake_provider/script.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";
import { need } from "../../sandbox/_test_requires.ts";

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** Writes `files` (path relative to `root` → text). */
async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

/** The text of every message of a Chat request, in order, as `role: text`. */
function chatTexts(body: unknown): string[] {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return messages.map((m) => {
    const content = typeof m.content === "string"
      ? m.content
      : (m.content as Array<{ text?: string }> ?? []).map((p) => p.text ?? "").join("\n");
    return `${m.role}: ${content}`;
  });
}

Deno.test("claude-code: skills are listed, warned about, injected on $name and loaded by Skill", async () => {
  await using fake = await startFakeProvider(validateScript([
    { reply: { tool_calls: [{ name: "Skill", args: { skill: "deploy" } }] } },
    {
      expect: { last_tool_result_contains: "Loaded skill: deploy" },
      reply: { text: "done" },
    },
  ]));
  await using ws = await sessionWorkspace(fake.baseUrl);
  const repoSkill = join(ws.cwd, ".agents/skills/deploy/SKILL.md");
  const userSkill = join(dirname(ws.cwd), ".agents/skills/deploy/SKILL.md");
  const broken = join(dirname(ws.cwd), ".agents/skills/Broken/SKILL.md");
  await writeFiles(ws.cwd, {
    ".agents/skills/deploy/SKILL.md": skill("deploy", "Ship the app", "REPO-DEPLOY-BODY"),
  });
  await writeFiles(dirname(ws.cwd), {
    ".agents/skills/deploy/SKILL.md": skill("deploy", "the user's deploy", "USER-BODY"),
    ".agents/skills/notes/SKILL.md": skill("notes", "Keep notes", "NOTES-BODY"),
    ".agents/skills/Broken/SKILL.md": skill("Broken", "bad name", "x"),
  });
  const warnings: string[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, harness: "claude-code", sandbox: "danger-full-access", approval: "never" },
    { onEvent: (e) => e.type === "warning" && warnings.push(e.message) },
    { env: ws.env },
  );
  const skillWarnings = () => warnings.filter((w) => /skill/i.test(w));
  assert.deepEqual(skillWarnings(), [
    `Skipped the skill ${broken}: the name "Broken" may hold only lowercase letters, digits ` +
    "and single hyphens between them",
    `Skill "deploy": ${repoSkill} (repo) wins over ${userSkill} (user)`,
  ]);
  assert.deepEqual(
    (await session.skills()).map((s) => [s.name, s.scope, s.path]),
    [["deploy", "repo", repoSkill], [
      "notes",
      "user",
      join(dirname(userSkill), "../notes/SKILL.md"),
    ]],
  );

  const outcome = await session.prompt("please $deploy it", new AbortController().signal);
  assert.deepEqual(outcome, { status: "completed", finalText: "done" });
  assert.deepEqual(fake.failures, []);
  const [first, second] = fake.requests.map((r) => chatTexts(r.body));
  const prompt = first.findIndex((t) => t.startsWith("user: ") && t.includes("please $deploy it"));
  assert.ok(prompt >= 0, "the prompt is sent");
  const listing = first.find((t) => t.includes("Skills you can load with the Skill tool"));
  assert.ok(listing?.includes(`- deploy: Ship the app (file: ${repoSkill})`), listing);
  assert.ok(!listing?.includes("Broken"));
  assert.equal(
    first.at(-1),
    `user: <skill>\n<name>deploy</name>\n<path>${repoSkill}</path>\n` +
      `${skill("deploy", "Ship the app", "REPO-DEPLOY-BODY").trimEnd()}\n</skill>`,
    "the skill follows the prompt as a user message",
  );
  assert.match(
    second.at(-1)!,
    /^tool: Loaded skill: deploy\nBase directory .*\n\nREPO-DEPLOY-BODY/,
  );
  assert.equal(skillWarnings().length, 2, "no new warnings during the turn");
});

const BWRAP = await need("bwrap");

Deno.test({
  name:
    `a repository SKILL.md linked to /dev/zero does not stall the sandboxed session's start${BWRAP.note}`,
  ignore: BWRAP.ignore,
  async fn() {
    await using fake = await startFakeProvider([]);
    await using ws = await sessionWorkspace(fake.baseUrl);
    await writeFiles(ws.cwd, {
      ".agents/skills/deploy/SKILL.md": skill("deploy", "Ship the app", "BODY"),
    });
    const zero = [".agents/skills/zero/SKILL.md", ".codex/skills/zero/SKILL.md"];
    for (const path of zero) {
      await Deno.mkdir(dirname(join(ws.cwd, path)), { recursive: true });
      await Deno.symlink("/dev/zero", join(ws.cwd, path));
    }
    const warnings: string[] = [];
    const started = Date.now();
    const opening = openSession(
      { cwd: ws.cwd, harness: "claude-code", sandbox: "workspace-write", approval: "never" },
      { onEvent: (e) => e.type === "warning" && warnings.push(e.message) },
      { env: ws.env },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the session did not start in 30 s")), 30_000);
    });
    await using session = await Promise.race([opening, late]).finally(() => clearTimeout(timer));
    assert.ok(Date.now() - started < 30_000);
    assert.deepEqual(
      warnings.filter((w) => w.startsWith("Skipped the skill")),
      zero.map((path) =>
        `Skipped the skill ${join(ws.cwd, path)}: it is a character device, not a regular file`
      ),
    );
    // Control: the regular skill is listed, read through the sandboxed file helper.
    assert.deepEqual((await session.skills()).map((s) => s.name), ["deploy"]);
  },
});
