import * as z from "zod";
import { defineCapability } from "./capability.ts";

/** Most findings one call may report (Qwen Code's limit; Claude Code's schema says 32). */
const MAX_FINDINGS = 50;

/**
 * One finding as a model sends it. Accepts the union of vendor spellings, since a harness maps
 * only top-level arguments: Claude's `short_summary`/`failure_scenario` and Qwen's
 * `shortSummary`/`failureScenario`/`outcomeNote`, and both vendors' severities.
 */
const findingInput = z.object({
  file: z.string().trim().min(1, "each finding needs the file it is in"),
  line: z.int().optional(),
  summary: z.string().trim().min(1, "each finding needs a summary"),
  short_summary: z.string().optional(),
  shortSummary: z.string().optional(),
  failure_scenario: z.string().optional(),
  failureScenario: z.string().optional(),
  category: z.string().optional(),
  severity: z.enum(["important", "pre_existing", "nit", "Critical", "Suggestion", "Nice to have"])
    .optional(),
  verdict: z.string().optional(),
  confidence: z.string().optional(),
  outcome: z.enum(["fixed", "skipped", "no_change_needed"]).optional(),
  outcome_note: z.string().optional(),
  outcomeNote: z.string().optional(),
});

/**
 * Input of `findings.report`. Harness mapping: Claude `ReportFindings` and Qwen
 * `report_findings` {level, findings}.
 */
export const reportFindingsInput = z.object({
  level: z.string().optional().describe("The review effort the findings came from"),
  findings: z.array(findingInput).max(MAX_FINDINGS, `report at most ${MAX_FINDINGS} findings`),
});

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
export function reportedFindings(input: z.infer<typeof reportFindingsInput>): ReportedFinding[] {
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

/**
 * Records review findings. A review (`/review`, `exec review`) shows them with the findings of
 * its answer; elsewhere the model reads them back as a list.
 */
export const reportFindings = defineCapability({
  id: "findings.report",
  input: reportFindingsInput,
  mutates: false,
  run(input): Promise<ReportFindingsOutput> {
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
    return Promise.resolve({
      count,
      ...(input.level !== undefined ? { level: input.level } : {}),
      findings,
      output: [head, ...lines].join("\n"),
    });
  },
});
