/**
 * An exported conversation as one self-contained HTML page: its styles inline, no script, no
 * image, font or link to load (a Content-Security-Policy says so to the browser too), every text
 * escaped. Commands and their output fold in `<details>`; diffs colour their added and removed
 * lines.
 */
import type { ExportCall, ExportDoc, ExportEntry } from "./conversation.ts";

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem;
  color: #1f2328; background: #fff; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.1rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.meta { color: #59636e; font-size: 0.9rem; } .note { color: #59636e; font-style: italic; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { background: #f6f8fa; padding: 0.6rem; overflow-x: auto; white-space: pre-wrap; }
details { margin: 0.4rem 0; } summary { cursor: pointer; color: #59636e; }
.call { margin: 0.8rem 0; } .failed { color: #b42318; }
.add { color: #1a7f37; } .del { color: #b42318; } .hunk { color: #8250df; }
@media (prefers-color-scheme: dark) {
  body { color: #e6edf3; background: #0d1117; } pre { background: #161b22; }
  .meta, .note, summary { color: #9198a1; } h2 { border-color: #30363d; }
}`;

/** `doc` as one HTML page. */
export function htmlOf(doc: ExportDoc): string {
  const { meta } = doc;
  const body: string[] = [
    `<h1>${escapeHtml(doc.title)}</h1>`,
    '<ul class="meta">',
    `<li>Session: <code>${escapeHtml(meta.sessionId)}</code></li>`,
    `<li>Model: <code>${escapeHtml(`${meta.provider}/${meta.model}`)}</code></li>`,
    `<li>Directory: <code>${escapeHtml(meta.cwd)}</code></li>`,
    `<li>Started: ${escapeHtml(meta.created)}</li>`,
    "</ul>",
  ];
  let speaker: "user" | "agent" | undefined;
  for (const entry of doc.entries) {
    const now = entry.kind === "user" ? "user" : entry.kind === "note" ? undefined : "agent";
    if (now && now !== speaker) body.push(now === "user" ? "<h2>You</h2>" : "<h2>Agent</h2>");
    speaker = now ?? speaker;
    body.push(entryHtml(entry));
  }
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${STYLE}\n</style>`,
    "</head>",
    "<body>",
    ...body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function entryHtml(entry: ExportEntry): string {
  switch (entry.kind) {
    case "user":
      return `<div class="text">${escapeHtml(entry.text.trim())}</div>`;
    case "agent":
      return [
        ...(entry.thinking ? [folded("Thinking", pre(entry.thinking))] : []),
        ...(entry.text.trim() ? [`<div class="text">${escapeHtml(entry.text.trim())}</div>`] : []),
      ].join("\n");
    case "note":
      return `<p class="note">${escapeHtml(entry.text)}</p>`;
    case "tool":
      return `<div class="call">${callHtml(entry.call)}</div>`;
  }
}

function callHtml(call: ExportCall): string {
  const { view } = call;
  const state = call.result === undefined
    ? ' <span class="failed">(interrupted: no result)</span>'
    : call.isError
    ? ' <span class="failed">(failed)</span>'
    : "";
  const result = call.result === undefined ? "" : pre(call.result);
  if (view.kind === "command") {
    return folded(`<code>$ ${escapeHtml(oneLine(view.command))}</code>${state}`, result);
  }
  if (view.kind === "change") {
    const files = view.changes.map((c) =>
      `<p>${escapeHtml(c.kind)} <code>${escapeHtml(c.displayPath)}</code></p>` +
      (c.diff ? diffHtml(c.diff) : "")
    );
    const failure = call.isError && result ? folded("Result", result) : "";
    return `<p>Changed with <code>${escapeHtml(call.tool)}</code>${state}</p>\n${
      files.join("\n")
    }${failure}`;
  }
  const args = view.args && view.args !== "{}" ? pre(view.args) : "";
  return folded(`Used <code>${escapeHtml(call.tool)}</code>${state}`, args + result);
}

function folded(summaryHtml: string, innerHtml: string): string {
  return `<details><summary>${summaryHtml}</summary>\n${innerHtml}</details>`;
}

function pre(text: string): string {
  return `<pre>${escapeHtml(text.replace(/\n+$/, ""))}</pre>\n`;
}

/** A unified diff with its added, removed and hunk lines marked. */
function diffHtml(diff: string): string {
  const lines = diff.replace(/\n+$/, "").split("\n").map((line) => {
    const mark = line.startsWith("@@")
      ? "hunk"
      : line.startsWith("+") && !line.startsWith("+++")
      ? "add"
      : line.startsWith("-") && !line.startsWith("---")
      ? "del"
      : "";
    return mark ? `<span class="${mark}">${escapeHtml(line)}</span>` : escapeHtml(line);
  });
  return `<pre>${lines.join("\n")}</pre>\n`;
}

/** `text` safe in HTML text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
