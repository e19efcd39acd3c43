/**
 * One run's section of the HTML report: its record (result, failed calls by kind, tokens, cost,
 * times, diff, how to resume it) and its ATIF trajectory as a transcript. Every text is escaped.
 */
import type { AtifMetrics, AtifStep, AtifToolCall, Trajectory } from "../../../trajectory/atif.ts";
import { formatCost } from "../../term/status_line.ts";
import type { RunRecord } from "../types.ts";
import { plural } from "./_format.ts";

/** `text` safe inside an HTML element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** The id of a run's section: `run-<trial>`, any character but `A-Za-z0-9._-` made `_`. */
export function runAnchor(trial: string): string {
  return `run-${trial.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** The id of a task's section: `task-<name>`, made safe the same way. */
export function taskAnchor(task: string): string {
  return `task-${task.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** A run's section: its record, then its transcript (or a note that it has none). */
export function runSection(record: RunRecord, trajectory: Trajectory | undefined): string {
  const result = record.passed ? "passed" : "failed";
  return [
    `<section class="run" id="${escapeHtml(runAnchor(record.trial))}">`,
    `<h3>${escapeHtml(record.trial)} <span class="${result}">${result}</span></h3>`,
    `<p class="meta">${escapeHtml(record.task)} · ${escapeHtml(record.harness)} × ` +
    `${escapeHtml(record.model)} · attempt ${record.attempt}</p>`,
    recordList(record),
    "<h4>Transcript</h4>",
    trajectory
      ? transcript(trajectory)
      : '<p class="none">No trajectory was recorded for this run.</p>',
    `<p><a href="#${escapeHtml(taskAnchor(record.task))}">Back to ${
      escapeHtml(record.task)
    }</a></p>`,
    "</section>",
  ].join("\n");
}

function recordList(r: RunRecord): string {
  const entries: [string, string][] = [
    ["Result", `${r.passed ? "passed" : "failed"} (reward ${r.reward ?? "none"})`],
    ["Status", r.status],
    ...(r.error ? [["Error", r.error] as [string, string]] : []),
    [
      "Steps",
      `${r.requests} requests, ${r.tool_calls} tool calls, ${r.repaired_tool_calls} repaired`,
    ],
    ["Failed calls", failedText(r)],
    ["Stops", `${r.loop_guard_stops} by the loop guard, ${r.step_limit_stops} at the step limit`],
    [
      "Tokens",
      `${num(r.tokens.input)} in, ${num(r.tokens.output)} out, ${num(r.tokens.cached)} cached`,
    ],
    ["Cost", r.cost_usd === null ? "unknown (no price for the model)" : formatCost(r.cost_usd)],
    ["Time", timeText(r)],
    [
      "Diff",
      r.diff ? `${plural(r.diff.files, "file")}, +${r.diff.added} −${r.diff.deleted}` : "not taken",
    ],
    ["Harness", `${r.harness} (${r.harness_hash ?? "no hash"})`],
    ["Model", `${r.model}${r.provider ? ` via ${r.provider}` : ""}`],
    ["Ran", `${r.started_at} to ${r.finished_at}`],
  ];
  const items = entries.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`);
  items.push(
    r.session_id
      ? `<dt>Session</dt><dd>${escapeHtml(r.session_id)}</dd><dd class="hint">open it with ` +
        `<code>interpreter resume ${escapeHtml(r.session_id)}</code></dd>`
      : "<dt>Session</dt><dd>none (the run never started a session)</dd>",
  );
  return `<dl class="record">\n${items.join("\n")}\n</dl>`;
}

function failedText(r: RunRecord): string {
  const kinds = Object.entries(r.failed_tool_calls).filter(([, n]) => n > 0);
  return kinds.length === 0 ? "none" : kinds.map(([kind, n]) => `${kind} ${n}`).join(", ");
}

function timeText(r: RunRecord): string {
  const t = r.time_sec;
  return `${t.total.toFixed(1)}s total: setup ${t.setup.toFixed(1)}s, agent ${
    t.agent.toFixed(1)
  }s, ` +
    `check ${t.check.toFixed(1)}s`;
}

/** A trajectory as a list of steps, its notes first. */
function transcript(t: Trajectory): string {
  const notes = t.notes ? `<p class="notes">${escapeHtml(t.notes)}</p>\n` : "";
  return `${notes}<ol class="steps">\n${t.steps.map(stepItem).join("\n")}\n</ol>`;
}

function stepItem(step: AtifStep): string {
  const metrics = step.metrics ? ` <span class="metrics">${metricsText(step.metrics)}</span>` : "";
  const stop = typeof step.extra?.stop_reason === "string"
    ? ` <span class="stop">stopped: ${escapeHtml(step.extra.stop_reason)}</span>`
    : "";
  const source = escapeHtml(step.source);
  const parts = [
    `<li class="step ${source}"><div class="who">${source} · step ${step.step_id}` +
    `${metrics}${stop}</div>`,
  ];
  if (step.reasoning_content) {
    parts.push(
      `<details><summary>reasoning</summary><div class="text">` +
        `${escapeHtml(step.reasoning_content)}</div></details>`,
    );
  }
  if (step.message) parts.push(`<div class="text">${escapeHtml(step.message)}</div>`);
  parts.push(...callsOf(step), "</li>");
  return parts.join("\n");
}

/** Each tool call with its arguments and output; outputs no call claims come after. */
function callsOf(step: AtifStep): string[] {
  const results = step.observation?.results ?? [];
  const failed = (step.extra?.failed_tool_calls as unknown[] | undefined) ?? [];
  const calls = (step.tool_calls ?? []).map((call) => {
    const outputs = results.filter((r) => r.source_call_id === call.tool_call_id);
    return callBlock(call, outputs.map((o) => o.content ?? ""), failed.includes(call.tool_call_id));
  });
  const ids = new Set((step.tool_calls ?? []).map((c) => c.tool_call_id));
  const loose = results.filter((r) => !r.source_call_id || !ids.has(r.source_call_id))
    .map((r) =>
      `<div class="label">output</div><pre class="out">${escapeHtml(r.content ?? "")}</pre>`
    );
  return [...calls, ...loose];
}

function callBlock(call: AtifToolCall, outputs: string[], failed: boolean): string {
  const mark = failed ? ' <span class="failed">failed</span>' : "";
  const shown = outputs.length > 0
    ? outputs.map((o) => `<pre class="out">${escapeHtml(o)}</pre>`).join("\n")
    : '<p class="none">No output was recorded.</p>';
  return [
    `<div class="call${failed ? " failed-call" : ""}">`,
    `<div class="call-head"><code>${escapeHtml(call.function_name)}</code> ` +
    `<span class="id">${escapeHtml(call.tool_call_id)}</span>${mark}</div>`,
    `<pre class="args">${escapeHtml(JSON.stringify(call.arguments, null, 2))}</pre>`,
    `<div class="label">output</div>`,
    shown,
    "</div>",
  ].join("\n");
}

function metricsText(m: AtifMetrics): string {
  const parts = [
    ...(m.prompt_tokens !== undefined ? [`${num(m.prompt_tokens)} in`] : []),
    ...(m.completion_tokens !== undefined ? [`${num(m.completion_tokens)} out`] : []),
    ...(m.cached_tokens ? [`${num(m.cached_tokens)} cached`] : []),
    ...(m.cost_usd !== undefined ? [formatCost(m.cost_usd)] : []),
  ];
  return escapeHtml(parts.join(" · "));
}

/** `12,345`, the same on every machine. */
function num(n: number): string {
  return n.toLocaleString("en-US");
}
