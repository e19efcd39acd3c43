/**
 * Issue 32 group 10: findings reported with ReportFindings (Claude Code) or report_findings
 * (Qwen Code) reach the rendered review, and record_artifact (Qwen Code) saves a workspace file
 * into the session's artifact folder, which exec lists at its end. Real sessions against the
 * scripted fake provider.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { sessionWorkspace } from "../lib/session/_test_session.ts";
import { runReviewTurn, withReviewSession } from "../lib/review/review.ts";
import { openSession, resolveOpening } from "../lib/session/open.ts";
import { artifactFolder, recordedArtifactLines } from "../lib/session/artifact_store.ts";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** A review of an uncommitted change under `harness`, the model scripted by `script`. */
async function reviewWith(harness: string, script: ScriptTurn[]) {
  await using fake = startFakeProvider(script);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await Deno.writeTextFile(join(ws.cwd, "stats.py"), "def mean(xs):\n    return sum(xs)\n");
  await git(ws.cwd, "add", ".");
  await git(ws.cwd, "commit", "-qm", "first");
  await Deno.writeTextFile(
    join(ws.cwd, "stats.py"),
    "def mean(xs):\n    return sum(xs) / len(xs)\n",
  );
  const config = { cwd: ws.cwd, harness, ephemeral: true };
  const base = {
    opening: await resolveOpening({ config, env: ws.env }),
    env: ws.env,
    io: { onEvent: () => {} },
  };
  const result = await withReviewSession(
    base,
    { kind: "uncommitted" },
    (session, request) => runReviewTurn(session, request, new AbortController().signal),
  );
  assert.deepEqual(fake.failures, []);
  return result;
}

const CLAUDE_FINDING = {
  file: "stats.py",
  line: 2,
  summary: "mean() divides by zero on an empty list",
  failure_scenario: "mean([]) raises ZeroDivisionError",
  severity: "important",
  verdict: "CONFIRMED",
};

Deno.test("ReportFindings (claude-code) findings reach the rendered review beside a plain answer", async () => {
  const result = await reviewWith("claude-code", [
    { reply: { tool_calls: [{ name: "ReportFindings", args: { findings: [CLAUDE_FINDING] } }] } },
    {
      expect: { last_tool_result_contains: "Reported 1 finding" },
      reply: { text: "One problem: empty input." },
    },
  ]);
  assert.equal(result.outcome.status, "completed");
  assert.equal(
    result.text,
    "One problem: empty input.\n\n" +
      "stats.py:2-2  [P1]  mean() divides by zero on an empty list\n" +
      "    mean([]) raises ZeroDivisionError",
  );
});

Deno.test("report_findings (qwen-code, deferred) findings join the JSON answer's in the review", async () => {
  const finding = {
    severity: "Suggestion",
    file: "stats.py",
    summary: "No docstring",
    failureScenario: "Readers cannot tell what an empty list gives",
    outcome: "skipped",
  };
  const answer = JSON.stringify({
    findings: [{ title: "From the answer", body: "b", priority: 3 }],
    overall_correctness: "patch is incorrect",
    overall_explanation: "Two things.",
  });
  const result = await reviewWith("qwen-code", [
    {
      reply: {
        tool_calls: [{
          name: "tool_call",
          args: { name: "report_findings", arguments: { level: "low", findings: [finding] } },
        }],
      },
    },
    { expect: { last_tool_result_contains: "Reported 1 finding" }, reply: { text: answer } },
  ]);
  assert.equal(
    result.text,
    "Two things.\n\n" +
      "stats.py  [P2]  No docstring\n    Readers cannot tell what an empty list gives\n" +
      "    Outcome: skipped\n\n" +
      "[P3]  From the answer\n    b\n\nVerdict: patch is incorrect",
  );
});

Deno.test("record_artifact (qwen-code) saves a workspace file and a link, listed at exec's end", async () => {
  await using fake = startFakeProvider([
    {
      reply: {
        tool_calls: [{
          name: "tool_call",
          args: {
            name: "record_artifact",
            arguments: { title: "Report", storage: "workspace", workspacePath: "out/report.md" },
          },
        }, {
          name: "tool_call",
          args: {
            name: "record_artifact",
            arguments: { title: "Docs", storage: "external_url", url: "https://example.com/d" },
          },
        }, {
          name: "tool_call",
          args: { name: "record_artifact", arguments: { title: "Bad", workspacePath: "nope.md" } },
        }],
      },
    },
    { expect: { last_tool_result_contains: "not a file" }, reply: { text: "Saved." } },
  ]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await Deno.mkdir(join(ws.cwd, "out"));
  await Deno.writeTextFile(join(ws.cwd, "out/report.md"), "# Findings\n");
  const config = { cwd: ws.cwd, harness: "qwen-code", ephemeral: true };
  const opening = await resolveOpening({ config, env: ws.env });
  await using session = await openSession(opening, { onEvent: () => {} }, { env: ws.env });
  const outcome = await session.prompt("save the report", new AbortController().signal);
  assert.equal(outcome.status, "completed");
  assert.deepEqual(fake.failures, []);
  const folder = artifactFolder(ws.home, session.id);
  const saved = join(folder, "report.md");
  assert.equal(await Deno.readTextFile(saved), "# Findings\n");
  assert.deepEqual(await recordedArtifactLines(session), [
    `artifacts (${folder}):`,
    `  Report: ${saved}`,
    "  Docs: https://example.com/d",
  ]);
});
