/**
 * AGENTS.md in the requests themselves: the user's file, the override and fallback names, the
 * byte cap with its note and warning, each placed and framed as the harness's vendor does.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";
import type { SessionEvent } from "./types.ts";

const TEAM = `sub team rules ${"x".repeat(200)}\n`;

/** The text of a Chat message, its parts joined. */
function textOf(message: { content: unknown }): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return (content as Array<{ text?: string }>).map((p) => p.text ?? "").join("\n");
}

Deno.test("AGENTS.md files reach native, claude-code and qwen-code requests in their vendors' form", async () => {
  await using fake = await startFakeProvider([1, 2, 3].map(() => ({ reply: { text: "ok" } })));
  await using ws = await sessionWorkspace(
    fake.baseUrl,
    'project_doc_fallback_filenames = ["TEAM.md"]\nproject_doc_max_bytes = 64',
  );
  const files: Record<string, string> = {
    [join(ws.home, "AGENTS.md")]: "global rules\n",
    [join(ws.cwd, "AGENTS.override.md")]: "root override rules\n",
    [join(ws.cwd, "AGENTS.md")]: "SHADOWED root rules\n",
    [join(ws.cwd, "CLAUDE.md")]: "claude root rules\n",
    [join(ws.cwd, "pkg", "AGENTS.md")]: "pkg rules\n",
    [join(ws.cwd, "pkg", "TEAM.md")]: "SHADOWED pkg team\n",
    [join(ws.cwd, "pkg", "sub", "TEAM.md")]: TEAM,
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  const cwd = join(ws.cwd, "pkg", "sub");
  const cutText = `sub team rules ${"x".repeat(19)}\n\n[Cut here: ${cwd}/TEAM.md has 216 bytes ` +
    "and only the first 34 fit in the limit for project instructions. Read the file for the rest.]";
  const warnings: string[] = [];
  const bodies: Array<{ messages: Array<{ role: string; content: unknown }> }> = [];
  for (const harness of ["native", "claude-code", "qwen-code"]) {
    const onEvent = (e: SessionEvent) => e.type === "warning" && warnings.push(e.message);
    await using session = await openSession({ cwd, harness }, { onEvent }, { env: ws.env });
    assert.equal((await session.prompt("hi", new AbortController().signal)).status, "completed");
    bodies.push(fake.requests.at(-1)!.body as (typeof bodies)[number]);
  }
  assert.deepEqual(fake.failures, []);
  const [native, claude, qwen] = bodies.map((b) => b.messages.map((m) => [m.role, textOf(m)]));

  // Codex: a user message of its own before <environment_context>, the project-doc marker
  // between the user's file and the project's, one file per folder from the root down.
  const agents = native.findIndex(([, text]) => text.startsWith("# AGENTS.md instructions"));
  assert.deepEqual(native[agents], [
    "user",
    `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\nglobal rules\n\n--- project-doc ---` +
    `\n\nroot override rules\n\npkg rules\n\n${cutText}\n</INSTRUCTIONS>`,
  ]);
  assert.match(native[agents + 1][1], /^<environment_context>/);

  // Claude Code: a reminder at the front of the first prompt, CLAUDE.md before AGENTS.md.
  const first = claude.find(([role]) => role === "user")![1];
  const contents = (path: string, kind: string) => `Contents of ${path} (${kind}):\n\n`;
  const project = "project instructions, checked into the codebase";
  assert.ok(first.startsWith("<system-reminder>"), first);
  assert.ok(
    first.includes(
      `${contents(join(ws.cwd, "CLAUDE.md"), project)}claude root rules\n\n` +
        `${
          contents(
            join(ws.home, "AGENTS.md"),
            "user's private global instructions for all projects",
          )
        }global rules\n\n${contents(join(ws.cwd, "AGENTS.override.md"), project)}root override ` +
        `rules\n\n${contents(join(ws.cwd, "pkg", "AGENTS.md"), project)}pkg rules\n\n` +
        `${contents(join(cwd, "TEAM.md"), project)}${cutText}\n</system-reminder>`,
    ),
    first,
  );
  assert.match(
    first,
    /<\/system-reminder>\n\nhi$/,
    "the prompt ends the message, after the reminders",
  );

  // Qwen Code: at the end of the system prompt (only its git snapshot follows), each file
  // between Context from lines.
  const ctx = (path: string, text: string) =>
    `--- Context from: ${path} ---\n${text}\n--- End of Context from: ${path} ---`;
  assert.equal(qwen[0][0], "system");
  const contextFiles = [
    ctx("../../../home/AGENTS.md", "global rules"),
    ctx("../../AGENTS.override.md", "root override rules"),
    ctx("../AGENTS.md", "pkg rules"),
    ctx("TEAM.md", cutText),
  ].join("\n\n");
  assert.ok(qwen[0][1].replace(/\n+Git snapshot[^]*$/, "").endsWith(contextFiles), qwen[0][1]);

  for (const text of [...native, ...claude, ...qwen].map(([, t]) => t)) {
    assert.doesNotMatch(text, /SHADOWED/);
  }
  const cut =
    `AGENTS.md files are over project_doc_max_bytes (64 bytes): cut ${cwd}/TEAM.md to 34 ` +
    "of 216 bytes";
  assert.deepEqual(warnings, [cut, cut, cut], "one line per session");
});
