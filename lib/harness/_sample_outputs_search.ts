/** Sample outputs of the web, findings and artifact capabilities (`_sample_outputs.ts`). */
import type { RecordArtifactOutput } from "../tools/record_artifact.ts";
import type { ReportFindingsOutput } from "../tools/report_findings.ts";
import type { WebFetchOutput } from "../tools/web_fetch.ts";
import type { WebSearchOutput } from "../tools/web_search.ts";

export const SEARCH_SAMPLES: Readonly<Record<string, readonly object[]>> = {
  "web.fetch": [
    {
      url: "https://example.com/",
      finalUrl: "https://example.com/",
      status: 200,
      contentType: "text/html",
      format: "markdown",
      content: "# Example Domain",
      bytes: 1256,
      truncated: false,
      prompt: "What is this page?",
    } satisfies WebFetchOutput,
  ],
  "web.search": [
    {
      query: "deno test sanitizers",
      backend: "searxng",
      results: [{
        title: "Testing | Deno Docs",
        url: "https://docs.deno.com/runtime/fundamentals/testing/",
        snippet: "Deno has a built-in test runner",
      }],
      output: 'Web results for "deno test sanitizers":\n\n1. Testing | Deno Docs\n' +
        "   https://docs.deno.com/runtime/fundamentals/testing/\n   Deno has a built-in test runner",
    } satisfies WebSearchOutput,
  ],
  "findings.report": [
    {
      count: 1,
      level: "high",
      findings: [{ file: "src/a.ts", line: 12, summary: "Off by one", priority: 1 }],
      output: "Reported 1 finding:\nsrc/a.ts:12  [P1]  Off by one",
    } satisfies ReportFindingsOutput,
  ],
  "artifact.record": [
    {
      title: "Benchmark report",
      kind: "file",
      path: "/home/ada/.openinterpreter/artifacts/0190-ab/report.html",
      source: "/work/app/report.html",
      bytes: 5120,
      recordedAt: "2026-12-01T10:00:00.000Z",
      folder: "/home/ada/.openinterpreter/artifacts/0190-ab",
      output: 'Artifact "Benchmark report" saved to ' +
        "/home/ada/.openinterpreter/artifacts/0190-ab/report.html.",
    } satisfies RecordArtifactOutput,
  ],
};
