/**
 * The report as one self-contained HTML page (`report.html` in the job folder): per task the
 * table and a bar chart of pass rates, then every run's record and transcript, each linked from
 * the table as `#run-<trial>`. Inline CSS only: no script, no stylesheet or font from the net,
 * so the page opens the same offline, from a CI artifact, or attached to a bug report.
 */
import type { Trajectory } from "../../../trajectory/atif.ts";
import type { RunRecord } from "../types.ts";
import {
  costCell,
  countCell,
  glyphsFor,
  intervalCell,
  passCell,
  percent,
  secondsCell,
  tokensCell,
} from "./_format.ts";
import { escapeHtml, runAnchor, runSection, taskAnchor } from "./_html_run.ts";
import {
  differences,
  MIN_RUNS_FOR_INTERVAL,
  summarize,
  type SummaryRow,
  type TaskSummary,
} from "./stats.ts";

/** What the page is called. */
export interface HtmlReportOptions {
  title: string;
}

const G = glyphsFor(true);

const CSS = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem;
  color: #1d1d1f; background: #fff; }
h1, h2, h3 { line-height: 1.2; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { padding: .3rem .6rem; border-bottom: 1px solid #ddd; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.best td { font-weight: 600; background: #f3fbf3; }
.bars { display: grid; grid-template-columns: max-content 1fr max-content; gap: .3rem .8rem;
  align-items: center; max-width: 50rem; }
.bar { background: #eee; height: 1rem; border-radius: 2px; }
.bar span { display: block; height: 100%; background: #2e8b57; border-radius: 2px; }
.passed { color: #1a7f37; } .failed { color: #b42318; }
.run { border-top: 2px solid #ddd; margin-top: 2rem; }
.meta, .hint, .none, .metrics, .id, .label { color: #666; }
dl.record { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.record dt { font-weight: 600; } dl.record dd { margin: 0; }
dl.record dd.hint { grid-column: 2; }
ol.steps { list-style: none; padding: 0; }
.step { border-left: 4px solid #ccc; padding: .3rem .8rem; margin: .6rem 0; }
.step.user { border-color: #3b82f6; } .step.agent { border-color: #2e8b57; }
.step.system { border-color: #999; }
.who { font-size: .85rem; font-weight: 600; } .stop { color: #b42318; }
.text { white-space: pre-wrap; margin: .3rem 0; }
.call { background: #f7f7f8; padding: .3rem .6rem; margin: .4rem 0; border-radius: 4px; }
.call.failed-call { background: #fdf2f1; }
pre { white-space: pre-wrap; word-break: break-word; margin: .2rem 0; font-size: .85rem; }
pre.out { max-height: 24rem; overflow: auto; background: #fff; border: 1px solid #e3e3e3;
  padding: .3rem; }
`;

/** The whole page: the tables and charts of every task, then a section per run. */
export function renderHtml(
  records: readonly RunRecord[],
  trajectories: ReadonlyMap<string, Trajectory>,
  { title }: HtmlReportOptions,
): string {
  const tasks = summarize(records);
  const body = tasks.length === 0
    ? ['<p class="none">No runs to report.</p>']
    : [...tasks.map(taskSection), '<h2 id="runs">Runs</h2>', ...runSections(tasks, trajectories)];
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CSS}</style>`,
    "</head>",
    "<body>",
    `<h1>${escapeHtml(title)}</h1>`,
    ...body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function taskSection(summary: TaskSummary): string {
  const runs = summary.rows.reduce((n, r) => n + r.n, 0);
  return [
    `<section class="task" id="${escapeHtml(taskAnchor(summary.task))}">`,
    `<h2>${escapeHtml(summary.task)}</h2>`,
    `<p class="meta">${runs} run${runs === 1 ? "" : "s"}, ${summary.rows.length} harness × model ` +
    `pair${summary.rows.length === 1 ? "" : "s"}</p>`,
    table(summary.rows),
    "<h3>Pass rate</h3>",
    bars(summary.rows),
    verdict(summary.rows),
    "</section>",
  ].join("\n");
}

const HEADER = [
  "harness",
  "model",
  "pass",
  "95% CI",
  "steps",
  "failed calls",
  "tokens",
  "cost",
  "time",
  "runs",
];
const NUMERIC = new Set(["95% CI", "steps", "failed calls", "tokens", "cost", "time"]);

function table(rows: readonly SummaryRow[]): string {
  const head = HEADER.map((h) => `<th${NUMERIC.has(h) ? ' class="num"' : ""}>${h}</th>`).join("");
  return [
    "<table>",
    `<thead><tr>${head}</tr></thead>`,
    "<tbody>",
    ...rows.map(tableRow),
    "</tbody>",
    "</table>",
  ].join("\n");
}

function tableRow(r: SummaryRow): string {
  const cells = [
    `${r.tie ? '<span title="tie for best">= </span>' : r.best ? `${G.star} ` : ""}${
      escapeHtml(r.harness)
    }`,
    escapeHtml(r.model),
    passCell(r),
    intervalCell(r.interval, G),
    countCell(r.medianSteps),
    `${percent(r.failedCallRate)} (${r.failedCalls})`,
    tokensCell(r.medianTokens),
    costCell(r.meanCost, G),
    secondsCell(r.medianTimeSec),
    runLinks(r),
  ];
  const tds = cells.map((c, i) => `<td${NUMERIC.has(HEADER[i]) ? ' class="num"' : ""}>${c}</td>`);
  return `<tr${r.best ? ' class="best"' : ""}>${tds.join("")}</tr>`;
}

/** A link per run to its section, marked passed or failed. */
function runLinks(r: SummaryRow): string {
  return r.runs.map((run) => {
    const result = run.passed ? "passed" : "failed";
    return `<a class="${result}" href="#${escapeHtml(runAnchor(run.trial))}" ` +
      `title="${escapeHtml(`${run.trial}: ${result}`)}">${run.attempt} ${
        run.passed ? "✓" : "✗"
      }</a>`;
  }).join(" ");
}

function bars(rows: readonly SummaryRow[]): string {
  const items = rows.map((r) => {
    const width = Math.round(r.passRate * 1000) / 10;
    return `<div>${escapeHtml(r.harness)} × ${escapeHtml(r.model)}</div>` +
      `<div class="bar"><span style="width: ${width}%"></span></div>` +
      `<div>${percent(r.passRate)}</div>`;
  });
  return `<div class="bars">\n${items.join("\n")}\n</div>`;
}

function verdict(rows: readonly SummaryRow[]): string {
  const found = differences(rows);
  const label = (r: SummaryRow) => `${escapeHtml(r.harness)} × ${escapeHtml(r.model)}`;
  const tied = rows.filter((r) => r.tie);
  const tie = tied.length > 0
    ? `<p>= tie for best at ${percent(tied[0].passRate)}: ${tied.map(label).join(", ")}</p>\n`
    : "";
  if (found.length > 0) {
    return tie +
      found.map((d) =>
        `<p>${label(d.better)} is better than ${label(d.worse)} (intervals do not overlap)</p>`
      ).join("\n");
  }
  if (rows.length < 2) return "";
  if (rows.every((r) => r.interval === null)) {
    return `${tie}<p>No row has the ${MIN_RUNS_FOR_INTERVAL} runs an interval needs, so no ` +
      `difference can be told from noise: run --repeat ${MIN_RUNS_FOR_INTERVAL} or more.</p>`;
  }
  return `${tie}<p>No difference is larger than the noise: the 95% intervals overlap.</p>`;
}

function runSections(
  tasks: readonly TaskSummary[],
  trajectories: ReadonlyMap<string, Trajectory>,
): string[] {
  return tasks.flatMap((t) =>
    t.rows.flatMap((r) => r.runs.map((run) => runSection(run, trajectories.get(run.trial))))
  );
}
