import * as z from "zod";
import { defineCapability } from "./capability.ts";
import type { ReportFindingsOutput } from "./_report_findings_run.ts";

export type { ReportedFinding, ReportFindingsOutput } from "./_report_findings_run.ts";

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

/**
 * Records review findings. A review (`/review`, `exec review`) shows them with the findings of
 * its answer; elsewhere the model reads them back as a list.
 */
export const reportFindings = defineCapability({
  id: "findings.report",
  input: reportFindingsInput,
  mutates: false,
  async run(input): Promise<ReportFindingsOutput> {
    // The findings' rendering loads on the first report, not at start-up.
    const { runReportFindings } = await import("./_report_findings_run.ts");
    return runReportFindings(input);
  },
});
