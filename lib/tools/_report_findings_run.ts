/**
 * What `findings.report` does, loaded on the first report (report_findings.ts): the findings in
 * one spelling, with the vendors' severities as review priorities, and the list the model reads.
 */

/** `findings.report`'s checked input: both vendors' spellings (report_findings.ts). */
export interface FindingsRequest {
  level?: string;
  findings: Array<{
    file: string;
    line?: number;
    summary: string;
    short_summary?: string;
    shortSummary?: string;
    failure_scenario?: string;
    failureScenario?: string;
    category?: string;
    severity?: string;
    verdict?: string;
    confidence?: string;
    outcome?: string;
    outcome_note?: string;
    outcomeNote?: string;
  }>;
}

/** One finding, spellings merged: what the review renderer shows. */
export interface ReportedFinding {
  file: string;
  line?: number;
  summary: string;
  shortSummary?: string;
  failureScenario?: string;
  category?: string;
  /** 0 (most urgent) to 3, from the vendor's severity; absent when none was given. */
  priority?: number;
  verdict?: string;
  outcome?: string;
  outcomeNote?: string;
}

/** Result of `findings.report`. */
export interface ReportFindingsOutput {
  count: number;
  level?: string;
  findings: ReportedFinding[];
  /** One line per finding, `file:line [Pn] summary`, for the model to read back. */
  output: string;
}

/** The vendors' severities as review priorities (P0 most urgent). */
const PRIORITY: Record<string, number> = {
  Critical: 0,
  important: 1,
  Suggestion: 2,
  pre_existing: 2,
  nit: 3,
  "Nice to have": 3,
};

/** Findings in one spelling, from a call's (already checked) input. */
export function reportedFindings(input: FindingsRequest): ReportedFinding[] {
  return input.findings.map((f) => {
    const priority = f.severity === undefined ? undefined : PRIORITY[f.severity];
    const fields = {
      file: f.file,
      line: f.line,
      summary: f.summary,
      shortSummary: f.short_summary ?? f.shortSummary,
      failureScenario: f.failure_scenario ?? f.failureScenario,
      category: f.category,
      priority,
      verdict: f.verdict ?? f.confidence,
      outcome: f.outcome,
      outcomeNote: f.outcome_note ?? f.outcomeNote,
    };
    return Object.fromEntries(
      Object.entries(fields).filter(([, v]) => v !== undefined),
    ) as unknown as ReportedFinding;
  });
}

/** The result of one `findings.report` call. */
export function runReportFindings(input: FindingsRequest): ReportFindingsOutput {
  const findings = reportedFindings(input);
  const lines = findings.map((f) =>
    [
      `${f.file}${f.line !== undefined ? `:${f.line}` : ""}`,
      ...(f.priority !== undefined ? [`[P${f.priority}]`] : []),
      f.summary,
    ].join("  ")
  );
  const count = findings.length;
  const head = count === 0
    ? "No findings reported."
    : `Reported ${count} finding${count === 1 ? "" : "s"}:`;
  return {
    count,
    ...(input.level !== undefined ? { level: input.level } : {}),
    findings,
    output: [head, ...lines].join("\n"),
  };
}
