/**
 * An exported conversation as Markdown: a heading per speaker, the answers as the model wrote
 * them, each command with its output folded in `<details>`, each file change as a `diff` block.
 * Texts that hold backticks get longer fences, so nothing the model or a command wrote can end a
 * block early.
 */
import type { ExportCall, ExportDoc, ExportEntry } from "./conversation.ts";

/** `doc` as one Markdown document, ending with a newline. */
export function markdownOf(doc: ExportDoc): string {
  const { meta } = doc;
  const out: string[] = [
    `# ${oneLine(doc.title)}`,
    "",
    `- Session: ${code(meta.sessionId)}`,
    `- Model: ${code(`${meta.provider}/${meta.model}`)}`,
    `- Directory: ${code(meta.cwd)}`,
    `- Started: ${meta.created}`,
  ];
  let speaker: "user" | "agent" | undefined;
  for (const entry of doc.entries) {
    const now = entry.kind === "user" ? "user" : entry.kind === "note" ? undefined : "agent";
    if (now && now !== speaker) out.push("", now === "user" ? "## You" : "## Agent");
    speaker = now ?? speaker;
    out.push("", ...entryLines(entry));
  }
  return `${out.join("\n")}\n`;
}

function entryLines(entry: ExportEntry): string[] {
  switch (entry.kind) {
    case "user":
      return [entry.text.trim()];
    case "agent": {
      const lines = entry.thinking ? folded("Thinking", entry.thinking, "text") : [];
      if (entry.text.trim()) lines.push(...(lines.length ? [""] : []), entry.text.trim());
      return lines;
    }
    case "note":
      return [`*${entry.text}*`];
    case "tool":
      return callLines(entry.call);
  }
}

function callLines(call: ExportCall): string[] {
  const { view } = call;
  const state = call.result === undefined
    ? " (interrupted: no result)"
    : call.isError
    ? " (failed)"
    : "";
  if (view.kind === "command") {
    return [
      `**Ran**${state}`,
      "",
      ...fenced(`$ ${view.command}`, "sh"),
      ...(call.result !== undefined ? ["", ...folded("Output", call.result, "text")] : []),
    ];
  }
  if (view.kind === "change") {
    const lines = [`**Changed** with ${code(call.tool)}${state}`];
    for (const change of view.changes) {
      lines.push("", `${change.kind} ${code(change.displayPath)}`);
      if (change.diff) lines.push("", ...fenced(change.diff, "diff"));
    }
    if (call.isError && call.result !== undefined) {
      lines.push("", ...folded("Result", call.result, "text"));
    }
    return lines;
  }
  return [
    `**Used** ${code(call.tool)}${state}`,
    ...(view.args && view.args !== "{}" ? ["", ...folded("Arguments", view.args, "json")] : []),
    ...(call.result !== undefined ? ["", ...folded("Result", call.result, "text")] : []),
  ];
}

/** `text` in a fenced block inside `<details>` (a blank line on each side, as Markdown needs). */
function folded(summary: string, text: string, lang: string): string[] {
  return [`<details><summary>${summary}</summary>`, "", ...fenced(text, lang), "", "</details>"];
}

/** `text` in a code fence longer than any run of backticks in it. */
function fenced(text: string, lang: string): string[] {
  const fence = "`".repeat(Math.max(3, longestRun(text) + 1));
  return [`${fence}${lang}`, text.replace(/\n+$/, ""), fence];
}

/** `text` as inline code, on one line, whatever backticks it holds. */
function code(text: string): string {
  const line = oneLine(text);
  const ticks = "`".repeat(longestRun(line) + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${ticks}${pad}${line}${pad}${ticks}`;
}

function longestRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
