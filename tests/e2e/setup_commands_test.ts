/**
 * Custom slash commands written for other agents (issue 33 §1), through the real CLI against
 * the fake provider, in a copy of the shared fixture repository set up for Claude Code, Gemini
 * CLI, Qwen Code, opencode and ours: exec expands an exact known `/name` (after trust where the
 * command runs something), a writing pre-execution is refused in a read-only sandbox, an unknown
 * `/word` is sent as typed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter, REPO, run } from "./_harness_env.ts";

/** A temp git repository holding a copy of tests/fixtures/setups/repo, dot folders included. */
async function setupsRepo(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-setups-" }));
  await run("cp", ["-R", `${join(REPO, "tests/fixtures/setups/repo")}/.`, dir], dir);
  await run("git", ["init", "-q"], dir);
  await run("git", ["add", "."], dir);
  const who = ["-c", "user.email=t@example.com", "-c", "user.name=t"];
  await run("git", [...who, "commit", "-qm", "Fixture commit"], dir);
  return dir;
}

function replies(n: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ reply: { text: `done ${i}` } }))
    .join("\n");
}

/** The text of the last user message a request sent. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const user = messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

Deno.test("exec expands other agents' custom commands and sends unknown ones as typed", async () => {
  const repo = await setupsRepo();
  await using fake = await startFakeProvider(parseScript(replies(8)));
  const home = await fakeHome(
    fake.baseUrl,
    "chat",
    `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`,
  );
  const userHome = await Deno.makeTempDir({ prefix: "oi-user-" });
  const env = { HOME: userHome };
  const exec = (args: string[]) => interpreter(["exec", ...args], { cwd: repo, home, env });
  try {
    const fixit = await exec(["/fixit habits.py"]);
    assert.notEqual(fixit.code, 0, fixit.stderr + fixit.stdout);
    assert.match(
      fixit.stderr,
      /\/fixit \(.*fixit\.md\) approves Bash\(git diff:\*\)[^]*interpreter trust/,
    );

    const trust = await interpreter(["trust", "--yes"], { cwd: repo, home, env });
    assert.equal(trust.code, 0, trust.stderr);

    const sent = await exec(["/fixit habits.py"]);
    assert.equal(sent.code, 0, sent.stderr);
    const first = lastUserText(fake.requests.at(-1)!.body);
    assert.match(first, /Find and fix the bugs in habits\.py\.\n\nExplain each fix in one line\./);
    assert.doesNotMatch(first, /\/fixit/);

    const oneline = await exec(["/git:oneline the last commit"]);
    assert.equal(oneline.code, 0, oneline.stderr);
    const gemini = lastUserText(fake.requests.at(-1)!.body);
    assert.match(gemini, /Explain this commit for the last commit:\n[0-9a-f]{7,} Fixture commit/);

    const qwen = await exec(["/todo the loop"]);
    assert.equal(qwen.code, 0, qwen.stderr);
    assert.match(
      lastUserText(fake.requests.at(-1)!.body),
      /in def habit\(\):\n {4}return 1\n about the loop/,
    );

    const unknown = await exec(["/nosuch thing"]);
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.match(lastUserText(fake.requests.at(-1)!.body), /\/nosuch thing/);

    const before = fake.requests.length;
    const stamp = await exec(["-s", "read-only", "-a", "never", "/stamp"]);
    assert.notEqual(stamp.code, 0, stamp.stderr);
    assert.match(
      stamp.stderr,
      /\/stamp \(.*stamp\.md, line 4\): the command `touch stamped\.txt && echo stamped` failed/,
    );
    assert.equal(fake.requests.length, before, "nothing was sent");
    assert.equal(await Deno.stat(join(repo, "stamped.txt")).then(() => true, () => false), false);
  } finally {
    for (const dir of [repo, home, userHome]) await Deno.remove(dir, { recursive: true });
  }
});
