import assert from "node:assert/strict";
import { join } from "node:path";
import { atifProblems } from "../_atif.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";
import { pipedRepl } from "./_setups_repo.ts";

const PROMPT = "make notes <script>alert(1)</script>";
const PATCH = "*** Begin Patch\n*** Add File: notes.txt\n+first note\n*** End Patch\n";

/** The one session file under `home`. */
async function sessionFile(home: string): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(join(dir, e.name));
      else if (e.name.endsWith(".jsonl")) files.push(join(dir, e.name));
    }
  };
  await walk(join(home, "sessions"));
  assert.equal(files.length, 1, `one session file, found ${files.join(", ")}`);
  return files[0];
}

Deno.test("/export and interpreter export write the session as Markdown, HTML, JSONL and ATIF", async () => {
  await using dirs = tempDirs();
  await using fake = startFakeProvider([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo 'out ```'" } }] } },
    {
      expect: { last_tool_result_contains: "out ```" },
      reply: { tool_calls: [{ name: "apply_patch", args: { input: PATCH } }] },
    },
    { reply: { text: "Done & dusted: <b>notes.txt</b> holds the note." } },
  ]);
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const repl = await pipedRepl(["--harness", "native"], {
    cwd: repo,
    home,
    stdin: `${PROMPT}\n/export\n/export --format html page/export.html\n/export\nn\n`,
  });
  assert.deepEqual(fake.failures, []);
  assert.equal(repl.code, 0, repl.stdout + repl.stderr);
  const file = await sessionFile(home);
  const id = file.match(/([0-9a-f-]{36})\.jsonl$/)![1];
  const mdPath = join(repo, `session-${id}.md`);
  assert.match(repl.stdout, new RegExp(`Exported this session \\(Markdown\\) to ${mdPath}`));

  // The default file exists now: the third /export asks, and "n" keeps it (and is no prompt).
  assert.match(repl.stdout, /› \/export\nNot exported; \/export FILE writes to another file\n$/);
  assert.equal(fake.requests.length, 3);
  assert.doesNotMatch(repl.stdout, /error:/);
  const md = await Deno.readTextFile(mdPath);
  assert.match(md, /^# make notes <script>alert\(1\)<\/script>\n/);
  assert.match(md, /## You\n\nmake notes <script>/);
  // The command and its output hold a fence, so their blocks take longer ones.
  assert.match(md, /## Agent\n\n\*\*Ran\*\*\n\n````sh\n\$ echo 'out ```'\n````\n/);
  assert.match(
    md,
    /<details><summary>Output<\/summary>\n\n````text\n[^]*out ```\n[^]*````\n\n<\/details>/,
  );
  assert.match(md, /add `notes.txt`\n\n```diff\n@@ -0,0 \+1,1 @@\n\+first note\n```/);
  assert.match(md, /Done & dusted: <b>notes.txt<\/b> holds the note\.\n$/);

  const html = await Deno.readTextFile(join(repo, "page", "export.html"));
  assert.match(html, /^<!DOCTYPE html>/);
  assert.doesNotMatch(html, /<script/i, "the prompt's markup is escaped");
  assert.match(html, /make notes &#60;script&#62;alert\(1\)&#60;\/script&#62;/);
  assert.doesNotMatch(html, /\b(src|href)\s*=|url\(|@import/i, "nothing is loaded from elsewhere");
  assert.match(html, /<span class="add">\+first note<\/span>/);

  const jsonl = await interpreter(["export", "--last", "--format", "jsonl"], { cwd: repo, home });
  assert.equal(jsonl.code, 0, jsonl.stderr);
  assert.equal(
    jsonl.stdout,
    await Deno.readTextFile(file),
    "the session file's records as they are",
  );

  const atif = await interpreter(["export", id.slice(0, 13), "-f", "atif"], { cwd: repo, home });
  assert.equal(atif.code, 0, atif.stderr);
  const trajectory = JSON.parse(atif.stdout);
  assert.deepEqual(atifProblems(trajectory), [], "the trajectory passes Harbor's checks");
  assert.equal(trajectory.session_id, id);
  assert.equal(trajectory.steps[0].message, PROMPT);
  assert.equal(trajectory.steps.filter((s: { source: string }) => s.source === "agent").length, 3);

  const out = join(repo, "t.json");
  const written = await interpreter(["export", "--last", "-o", "t.json"], { cwd: repo, home });
  assert.equal(written.code, 0, written.stderr);
  assert.match(written.stderr, new RegExp(`Exported session ${id} \\(atif\\) to ${out}`));
  assert.deepEqual(JSON.parse(await Deno.readTextFile(out)), trajectory, "-o's .json is ATIF");
});

Deno.test("interpreter export names a missing session and refuses a link at -o", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome("http://127.0.0.1:9", "chat"));
  const missing = await interpreter(["export", "no-such-session"], { cwd: repo, home });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /error: No session with the id or name "no-such-session" in /);
  assert.match(missing.stderr, /hint: Run "interpreter resume" to pick one/);
  const none = await interpreter(["export", "--last"], { cwd: repo, home });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /error: No saved session for /);
  const neither = await interpreter(["export"], { cwd: repo, home });
  assert.equal(neither.code, 2);
  assert.match(
    neither.stderr,
    /error: Name the session to export\nhint: Run "interpreter export ID"/,
  );
  const format = await interpreter(["export", "--last", "-f", "pdf"], { cwd: repo, home });
  assert.equal(format.code, 2);
  assert.match(format.stderr, /Allowed choices are md, html, jsonl, atif/);

  const session = join(home, "sessions", "s.jsonl");
  await Deno.mkdir(join(home, "sessions"), { recursive: true });
  await Deno.writeTextFile(session, sessionText());
  await Deno.writeTextFile(join(repo, "target.md"), "keep me\n");
  await Deno.symlink("target.md", join(repo, "link.md"));
  const linked = await interpreter(["export", session, "-o", "link.md"], { cwd: repo, home });
  assert.equal(linked.code, 1, linked.stderr);
  assert.match(linked.stderr, /is a symbolic link to "target.md"; output files are never written/);
  assert.equal(await Deno.readTextFile(join(repo, "target.md")), "keep me\n");
});

/** A small session file: a header and one exchange. */
function sessionText(): string {
  const ts = "2026-12-05T03:00:00.000Z";
  const header = {
    type: "session",
    version: 2,
    id: "01a2a000-0000-7000-8000-000000000001",
    created: ts,
    cwd: "/tmp",
    interpreterVersion: "0.1.0",
    model: "m",
    provider: "p",
    harness: "native",
    sandbox: "read-only",
    approval: "never",
    origin: "exec",
  };
  const user = { role: "user", blocks: [{ type: "text", text: "hi" }] };
  const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };
  const answer = { role: "assistant", blocks: [{ type: "text", text: "hello" }], stop: "end_turn" };
  return [
    header,
    { type: "user_message", ts, message: user },
    { type: "assistant_message", ts, message: { ...answer, usage } },
  ].map((r) => JSON.stringify(r)).join("\n") + "\n";
}
