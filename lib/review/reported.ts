/**
 * Findings the reviewer reported with a findings tool (`findings.report`: Claude Code's
 * `ReportFindings`, Qwen Code's `report_findings`), joined to those of its answer, so that both
 * reach the rendered review.
 */
import type { ReplayedHistory } from "../session/replay_history.ts";
import { reportFindingsInput } from "../tools/report_findings.ts";
import { reportedFindings } from "../tools/_report_findings_run.ts";
import type { Review, ReviewFinding } from "./result.ts";

/** The findings the review turn's `findings.report` calls carried, in call order. */
export function findingsFromCalls(history: ReplayedHistory): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  for (const outer of history.calls.values()) {
    // Qwen Code's report_findings is deferred: it runs through tool_call.
    const call = outer.inner ?? outer;
    if (call.capability !== "findings.report") continue;
    // A call the tool refused (bad arguments) reported nothing.
    const parsed = reportFindingsInput.safeParse(call.input);
    if (!parsed.success) continue;
    for (const f of reportedFindings(parsed.data)) {
      const body = [f.failureScenario, f.outcome && `Outcome: ${f.outcome}`, f.outcomeNote]
        .filter(Boolean).join("\n");
      out.push({
        title: f.summary,
        body,
        ...(f.priority !== undefined ? { priority: f.priority } : {}),
        location: { path: f.file, start: f.line ?? 0, end: f.line ?? 0 },
      });
    }
  }
  return out;
}

/** `review` with `reported` first among its findings; a plain answer becomes the explanation. */
export function withReported(review: Review, reported: ReviewFinding[]): Review {
  if (reported.length === 0) return review;
  if (review.plain !== undefined) {
    return { findings: reported, explanation: review.plain.trim() };
  }
  return { ...review, findings: [...reported, ...review.findings] };
}
