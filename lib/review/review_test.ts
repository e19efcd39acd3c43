import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "../session/_test_session.ts";
import { runReviewTurn, withReviewSession } from "./review.ts";
import type { ReviewTarget } from "./target.ts";
import { resolveOpening, type SessionConfig } from "../session/open.ts";

const ANSWER = JSON.stringify({
  findings: [{
    title: "Divide by zero on an empty list",
    body: "`mean([])` raises.",
    confidence_score: 0.7,
    priority: 1,
    code_location: { absolute_file_path: "stats.py", line_range: { start: 2, end: 3 } },
  }],
  overall_correctness: "patch is incorrect",
  overall_explanation: "Empty input crashes.",
  overall_confidence_score: 0.6,
});

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
  }).output();
  assert.ok(out.success, `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

async function commitFile(cwd: string, name: string, text: string, message: string) {
  await Deno.writeTextFile(join(cwd, name), text);
  await git(cwd, "add", name);
  await git(cwd, "commit", "-qm", message);
  return await git(cwd, "rev-parse", "HEAD");
}

/** Reviews `target` in a workspace prepared by `prepare`; returns the request and the text. */
async function review(
  prepare: (cwd: string) => Promise<void>,
  target: ReviewTarget,
  settings: Omit<SessionConfig, "cwd"> = {},
) {
  await using fake = startFakeProvider([{ reply: { text: ANSWER } }]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await git(ws.cwd, "checkout", "-qb", "main");
  await commitFile(ws.cwd, "stats.py", "def mean(xs):\n    return sum(xs)\n", "first");
  await prepare(ws.cwd);
  const config = { cwd: ws.cwd, ...settings, ephemeral: true };
  const base = {
    opening: await resolveOpening({ config, env: ws.env }),
    env: ws.env,
    io: { onEvent: () => {} },
  };
  const result = await withReviewSession(base, target, async (session, request) => {
    const status = session.status();
    const turn = await runReviewTurn(session, request, new AbortController().signal);
    return { ...turn, request, status };
  });
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.requests.length, 1);
  const body = fake.requests[0].body as { messages: Array<{ role: string; content: unknown }> };
  const text = (role: string) =>
    body.messages.filter((m) => m.role === role)
      .map((m) => typeof m.content === "string" ? m.content : JSON.stringify(m.content)).join("\n");
  return { ...result, system: text("system"), user: text("user"), cwd: ws.cwd };
}

Deno.test("--uncommitted sends the diff against HEAD with untracked files, under the reviewer prompt, read-only", async () => {
  const r = await review(
    async (cwd) => {
      await Deno.writeTextFile(
        join(cwd, "stats.py"),
        "def mean(xs):\n    return sum(xs) / len(xs)\n",
      );
      await Deno.writeTextFile(join(cwd, "brand_new.py"), "UNTRACKED_MARKER = 1\n");
    },
    { kind: "uncommitted" },
    {
      sandbox: "danger-full-access",
      approval: "never",
      labels: { sandbox: "--yolo", approval: "--yolo" },
    },
  );
  assert.match(r.user, /staged, unstaged and untracked/);
  assert.match(r.user, /\+ {4}return sum\(xs\) \/ len\(xs\)/, "the tracked change");
  assert.match(r.user, /brand_new\.py[^]*\+UNTRACKED_MARKER = 1/, "the untracked file, as added");
  assert.match(r.system, /You are reviewing a code change/);
  assert.match(r.system, /\[P0\][^]*\[P3\]/);
  assert.match(r.system, /"overall_correctness"/);
  assert.doesNotMatch(r.system, /You are a coding agent/, "the harness prompt is replaced");
  assert.equal(r.status.sandboxMode, "read-only", "read-only even under --yolo");
  assert.equal(r.status.approval, "never");
  assert.equal(r.request.hint, "current changes");
  assert.equal(
    r.text,
    "Empty input crashes.\n\nstats.py:2-3  [P1]  Divide by zero on an empty list\n" +
      "    `mean([])` raises.\n\nVerdict: patch is incorrect (confidence 0.60)",
  );
});

Deno.test("--base diffs against the merge base, not the branch's tip", async () => {
  let mergeBase = "";
  const r = await review(async (cwd) => {
    mergeBase = await git(cwd, "rev-parse", "HEAD");
    await git(cwd, "checkout", "-qb", "feature");
    await commitFile(cwd, "feature.py", "FEATURE_MARKER = 1\n", "feature work");
    await git(cwd, "checkout", "-q", "main");
    await commitFile(cwd, "later.py", "MAIN_ONLY_MARKER = 1\n", "main moved on");
    await git(cwd, "checkout", "-q", "feature");
  }, { kind: "base", branch: "main" });
  assert.match(r.user, new RegExp(`merge base of HEAD and 'main' is commit ${mergeBase}`));
  assert.match(r.user, new RegExp(`git diff ${mergeBase}`));
  assert.match(r.user, /\+FEATURE_MARKER = 1/);
  assert.doesNotMatch(r.user, /MAIN_ONLY_MARKER/, "main's own later commit is not the change");
  assert.equal(r.request.hint, "changes against 'main'");
});

Deno.test("--commit sends that commit's change, with its title", async () => {
  let sha = "";
  const r = await review(async (cwd) => {
    sha = await commitFile(cwd, "fix.py", "COMMIT_MARKER = 1\n", "Fix the thing");
    await commitFile(cwd, "after.py", "LATER_MARKER = 1\n", "later");
  }, { kind: "commit", sha: "HEAD~1", title: "Fix the thing" });
  assert.match(r.user, new RegExp(`introduced by commit ${sha} \\("Fix the thing"\\)`));
  assert.match(r.user, /\+COMMIT_MARKER = 1/);
  assert.doesNotMatch(r.user, /LATER_MARKER/);
  assert.equal(r.request.hint, `commit ${sha.slice(0, 7)}: Fix the thing`);
});

Deno.test("custom instructions are the message; a plain-text answer is kept as it is", async () => {
  await using fake = startFakeProvider([{ reply: { text: "Looks fine to me." } }]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  const opening = await resolveOpening({ config: { cwd: ws.cwd }, env: ws.env });
  const base = { opening, env: ws.env, io: { onEvent: () => {} } };
  const target = { kind: "custom" as const, instructions: "Check the error handling only" };
  const result = await withReviewSession(
    base,
    target,
    (session, request) => runReviewTurn(session, request, new AbortController().signal),
  );
  assert.equal(result.text, "Looks fine to me.");
  assert.match(JSON.stringify(fake.requests[0].body), /Check the error handling only/);
});

Deno.test("a target with nothing to review or an unknown name fails before any request", async () => {
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await commitFile(ws.cwd, "a.txt", "a\n", "first");
  const opening = await resolveOpening({ config: { cwd: ws.cwd }, env: ws.env });
  const base = { opening, env: ws.env, io: { onEvent: () => {} } };
  const never = () => Promise.reject(new Error("no turn expected"));
  await assert.rejects(
    withReviewSession(base, { kind: "uncommitted" }, never),
    /Nothing to review: the working tree has no changes against HEAD/,
  );
  await assert.rejects(
    withReviewSession(base, { kind: "base", branch: "no-such-branch" }, never),
    /No branch "no-such-branch" in this repository/,
  );
  await assert.rejects(
    withReviewSession(base, { kind: "commit", sha: "--output=x" }, never),
    /"--output=x" is not a commit name/,
  );
  assert.equal(fake.requests.length, 0);
});

Deno.test("a review opens from the front end's opening and does not run its trust check again", async () => {
  await using fake = startFakeProvider([{ reply: { text: "Fine." } }]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  const opening = await resolveOpening({ config: { cwd: ws.cwd }, env: ws.env });
  // Checked once, by the front end: a second check would now refuse the directory.
  await Deno.remove(join(ws.cwd, ".git"), { recursive: true });
  await assert.rejects(resolveOpening({ config: { cwd: ws.cwd }, env: ws.env }), /trusted/);
  const base = { opening, env: ws.env, io: { onEvent: () => {} } };
  const target = { kind: "custom" as const, instructions: "Look at it" };
  const result = await withReviewSession(base, target, async (session, request) => {
    const settings = session.settings;
    const turn = await runReviewTurn(session, request, new AbortController().signal);
    return { ...turn, settings };
  });
  assert.equal(result.text, "Fine.");
  assert.deepEqual([result.settings.sandboxMode, result.settings.approvalPolicy], [
    "read-only",
    "never",
  ]);
});
