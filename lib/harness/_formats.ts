/**
 * Derived result-template placeholders that render structured capability output in a vendor's
 * own layout (ripgrep lines, DeepSeek TUI JSON). Each returns undefined when the output lacks
 * the fields it reads, so a placeholder only resolves for the capability it was written for.
 */

import { GEMINI_DERIVED } from "./_gemini_formats.ts";

type Output = Record<string, unknown>;
type Derived = (o: Output) => { value: unknown } | undefined;

interface GrepLine {
  path: string;
  line: number;
  text: string;
  match: boolean;
}

interface Item {
  status: string;
}

/** Placeholders for result templates; merged into `DERIVED` in `call.ts`. */
export const FORMAT_DERIVED: Record<string, Derived> = {
  /** Number of entries in `lines` (a read's line count). */
  line_count: (o) => Array.isArray(o.lines) ? { value: o.lines.length } : undefined,
  /**
   * Grep output as ripgrep prints it: content mode `path:line:text` (context lines
   * `path-line-text`), count mode `path:count`, otherwise one path per line.
   */
  grep_text: (o) => isGrep(o) ? { value: grepText(o) } : undefined,
  /**
   * Shell output as DeepSeek TUI compacts it past 900 characters: a marker, the first three
   * lines, the first 572 and the last 286 characters, and the sizes; shorter output as it is.
   */
  compacted_output: (o) =>
    typeof o.output === "string" && "exitCode" in o ? { value: compacted(o.output) } : undefined,
  /** Grep content matches as a DeepSeek TUI `grep_files` JSON object. */
  matches_json: (o) => isGrep(o) ? { value: matchesJson(o) } : undefined,
  /** A folder listing as a pretty JSON array of `{name, is_dir}` (DeepSeek TUI `list_dir`). */
  entries_json: (o) =>
    Array.isArray(o.entries)
      ? {
        value: JSON.stringify(
          (o.entries as { path: string; kind: string }[]).map((e) => ({
            name: e.path,
            is_dir: e.kind === "dir",
          })),
          null,
          2,
        ),
      }
      : undefined,
  /** Items in a todo list or plan. */
  item_count: (o) => itemsOf(o) ? { value: itemsOf(o)!.length } : undefined,
  /** Percentage (0–100, rounded) of todo or plan items completed; 0 for an empty list. */
  completion_pct: (o) => itemsOf(o) ? { value: completionPct(itemsOf(o)!) } : undefined,
  pending_count: (o) => countOf(o, "pending"),
  in_progress_count: (o) => countOf(o, "in_progress"),
  completed_count: (o) => countOf(o, "completed"),
  /** `checklist` with each line indented by two spaces (Kimi's todo render). */
  indented_checklist: (o) =>
    typeof o.checklist === "string"
      ? { value: o.checklist.split("\n").map((l) => `  ${l}`).join("\n") }
      : undefined,
  /** A todo list as DeepSeek TUI's checklist JSON: 1-based ids, completion and current item. */
  checklist_json: (o) => Array.isArray(o.todos) ? { value: checklistJson(o.todos) } : undefined,
  /** A plan as pretty JSON `{explanation, items: [{step, status}]}`. */
  plan_json: (o) =>
    Array.isArray(o.plan)
      ? { value: JSON.stringify({ explanation: o.explanation ?? null, items: o.plan }, null, 2) }
      : undefined,
  /** Background jobs as Kimi Code `TaskList` lines: one block per job, blank line between. */
  task_lines: (o) => Array.isArray(o.jobs) ? { value: taskLines(o.jobs) } : undefined,
  /** A stopped background job as Kimi Code's `TaskStop` JSON object. */
  task_stop_json: (o) => o.stopped === true ? { value: taskStopJson(o) } : undefined,
  /** The user's answers as Codex's `request_user_input` returns them (`{answers: {id: {answers}}}`). */
  answers_json: (o) =>
    typeof o.answered === "boolean" && Array.isArray(o.answers)
      ? { value: answersJson(o.answers as Array<{ id: string; answers: string[] }>) }
      : undefined,
  /** Gemini CLI's listing and grep layouts: see `_gemini_formats.ts`. */
  ...GEMINI_DERIVED,
};

function answersJson(answered: Array<{ id: string; answers: string[] }>): string {
  return JSON.stringify({
    answers: Object.fromEntries(answered.map((a) => [a.id, { answers: a.answers }])),
  });
}

interface Job {
  id: string;
  description: string;
  status: string;
  command: string;
  pid: number;
}

function taskLines(jobs: Job[]): string {
  return jobs.map((j) =>
    [
      `task_id: ${j.id}`,
      `description: ${j.description}`,
      `status: ${j.status}`,
      "detached: true",
      "kind: process",
      `command: ${j.command}`,
      `pid: ${j.pid}`,
    ].join("\n")
  ).join("\n\n");
}

function taskStopJson(o: Output): string {
  return JSON.stringify({
    message: `Successfully stopped task: ${o.id} (${o.command})`,
    task_id: o.id,
    task_type: "local_bash",
    command: o.command,
  });
}

function compacted(text: string): string {
  if (text.length <= 900) return text;
  const [head, tail] = [text.slice(0, 572), text.slice(-286)];
  return [
    "[exec_shell output compacted to protect context]",
    `Summary: ${text.split("\n").slice(0, 3).join("\n")}`,
    `Snippet: ${head}`,
    "",
    "[... output truncated for context ...]",
    "",
    tail,
    `(Original: ${text.length} chars, omitted: ${text.length - 572 - 286} chars.)`,
  ].join("\n");
}

function isGrep(o: Output): boolean {
  return Array.isArray(o.lines) && Array.isArray(o.files) && typeof o.mode === "string";
}

function grepText(o: Output): string {
  if (o.mode === "content") {
    return (o.lines as GrepLine[]).map((l) =>
      `${l.path}${l.match ? ":" : "-"}${l.line}${l.match ? ":" : "-"}${l.text}`
    ).join("\n");
  }
  if (o.mode === "count") {
    return (o.counts as { path: string; count: number }[]).map((c) => `${c.path}:${c.count}`)
      .join("\n");
  }
  return (o.files as string[]).join("\n");
}

function matchesJson(o: Output): string {
  const lines = o.lines as GrepLine[];
  const matches = lines.flatMap((l, i) => {
    if (!l.match) return [];
    const near = (from: number, step: number) => {
      const out: string[] = [];
      for (let j = from; lines[j] && !lines[j].match && lines[j].path === l.path; j += step) {
        out.push(lines[j].text);
      }
      return step < 0 ? out.reverse() : out;
    };
    return [{
      file: l.path,
      line_number: l.line,
      line: l.text,
      context_before: near(i - 1, -1),
      context_after: near(i + 1, 1),
    }];
  });
  return JSON.stringify({
    matches,
    total_matches: matches.length,
    truncated: o.truncated === true,
  });
}

function itemsOf(o: Output): Item[] | undefined {
  const items = Array.isArray(o.todos) ? o.todos : Array.isArray(o.plan) ? o.plan : undefined;
  return items as Item[] | undefined;
}

function countOf(o: Output, status: string): { value: number } | undefined {
  const items = itemsOf(o);
  return items ? { value: items.filter((i) => i.status === status).length } : undefined;
}

function completionPct(items: Item[]): number {
  if (items.length === 0) return 0;
  return Math.round(100 * items.filter((i) => i.status === "completed").length / items.length);
}

function checklistJson(todos: { content: string; status: string }[]): string {
  const items = todos.map((t, i) => ({ id: i + 1, content: t.content, status: t.status }));
  const current = items.find((t) => t.status === "in_progress");
  return JSON.stringify({
    items,
    completion_pct: completionPct(todos),
    in_progress_id: current ? current.id : null,
  });
}
