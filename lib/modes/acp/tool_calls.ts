/**
 * A tool call as an editor shows it: the kind of its capability (execute, edit, read, search,
 * fetch, think, …), a title a person can read, the files it touches, and when it ends its
 * output, its edits as `diff` content (old and new text per hunk) or its error. Pure: built from
 * the session's tool views (`lib/session/tool_views/tool_view.ts`), never from the harness's tool names.
 */
import type {
  PlanEntry,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type { FileChangeView, PlanItem, ToolView } from "../../session/tool_views/tool_view.ts";

/** The fields of a `tool_call` (and of a `tool_call_update` that renames or moves it). */
export interface ToolCallHead {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

/** Characters of tool output an update carries; the end is kept. */
const MAX_OUTPUT_CHARS = 20_000;
/** Characters of a title. */
const MAX_TITLE_CHARS = 120;

const KIND_OF_CAPABILITY: Record<string, ToolKind> = {
  "web.search": "fetch",
  "tools.search": "search",
  "skill.list": "search",
  "skill.load": "read",
  "mcp.list_resources": "search",
  "mcp.read_resource": "read",
  "plan.enter": "switch_mode",
  "plan.exit": "switch_mode",
  "topic.update": "think",
};

/** Kind, title and locations of a call, from its view. */
export function toolCallHead(view: ToolView): ToolCallHead {
  return { title: titleOf(view), kind: kindOf(view), locations: locationsOf(view) };
}

function kindOf(view: ToolView): ToolKind {
  switch (view.kind) {
    case "command":
      return "execute";
    case "file_change":
      return view.changes.length > 0 && view.changes.every((c) => c.kind === "delete")
        ? "delete"
        : "edit";
    case "file_read":
      return "read";
    case "search":
      return "search";
    case "fetch":
      return "fetch";
    case "plan":
      return "think";
    default:
      return KIND_OF_CAPABILITY[view.capability ?? ""] ?? "other";
  }
}

function titleOf(view: ToolView): string {
  return oneLine(titleText(view));
}

function titleText(view: ToolView): string {
  switch (view.kind) {
    case "command":
      if (view.job?.action === "output") return `Read the output of job ${view.job.id ?? ""}`;
      if (view.job?.action === "stop") return `Stop job ${view.job.id ?? ""}`;
      return view.command || view.name;
    case "file_change":
      return changesTitle(view.changes) || view.name;
    case "file_read":
      return `Read ${view.displayPath}${lineRange(view.startLine, view.endLine)}`;
    case "search":
      if (view.search === "list") return `List ${view.pattern}`;
      return `${view.search === "grep" ? "Search for" : "Find files"} "${view.pattern}"` +
        (view.path ? ` in ${view.path}` : "");
    case "fetch":
      return view.query !== undefined ? `Search the web for "${view.query}"` : `Fetch ${view.url}`;
    case "plan":
      return view.capability?.startsWith("todo.") ? "Update the to-do list" : "Update the plan";
    case "subagent":
      return `Agent: ${view.description ?? view.prompt}`;
    case "question":
      return "Ask the user";
    case "mcp":
      // An MCP tool as `server/tool`, as the OI fork names it.
      return `${view.server}/${view.tool}`;
    case "generic":
      return genericTitle(view);
  }
}

function genericTitle(view: Extract<ToolView, { kind: "generic" }>): string {
  return view.subject ? `${view.name}: ${view.subject}` : view.name;
}

function changesTitle(changes: FileChangeView[]): string {
  if (changes.length === 0) return "";
  const verbs = { add: "Create", delete: "Delete", update: "Edit" };
  const [first] = changes;
  if (changes.length === 1) {
    const moved = first.movedTo ? ` → ${first.movedTo}` : "";
    return `${first.movedTo ? "Move" : verbs[first.kind]} ${first.displayPath}${moved}`;
  }
  const names = changes.slice(0, 3).map((c) => c.displayPath).join(", ");
  return `Edit ${names}${changes.length > 3 ? ` and ${changes.length - 3} more` : ""}`;
}

function lineRange(start: number | undefined, end: number | undefined): string {
  if (start === undefined) return "";
  return end === undefined || end === start ? ` (line ${start})` : ` (lines ${start}–${end})`;
}

function oneLine(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
}

function locationsOf(view: ToolView): ToolCallLocation[] {
  switch (view.kind) {
    case "file_change":
      return view.changes.map((c) => {
        const line = diffHunks(c.diff)[0]?.newStart;
        return { path: c.movedTo ?? c.path, ...(line ? { line } : {}) };
      });
    case "file_read":
      return [{ path: view.path, ...(view.startLine ? { line: view.startLine } : {}) }];
    default:
      return [];
  }
}

/** What a finished call shows: its output, its edits as diffs, or its error. */
export function toolCallContent(view: ToolView, resultText: string): ToolCallContent[] {
  if (view.status === "failed" || view.status === "declined") {
    return text(view.error ?? resultText);
  }
  switch (view.kind) {
    case "command":
      return commandContent(view.output ?? "", view.exitCode);
    case "file_change":
      return view.changes.flatMap(changeContent);
    case "file_read":
    case "plan":
      return [];
    case "fetch":
      return text(
        [view.finalUrl ?? view.url, view.httpStatus, view.bytes && `${view.bytes} bytes`]
          .filter(Boolean).join(" · "),
      );
    case "subagent":
      return text(view.finalText ?? resultText);
    case "question":
      return text(
        view.questions.map((q) => `${q.question}\n→ ${(q.answers ?? []).join(", ")}`)
          .join("\n\n"),
      );
    default:
      return text(resultText);
  }
}

/** A command's output so far (or in full), in a fenced block, with its exit code when not 0. */
export function commandContent(output: string, exitCode?: number | null): ToolCallContent[] {
  const shown = tailOf(output);
  const fence = shown.includes("```") ? "~~~" : "```";
  const exit = exitCode === undefined || exitCode === 0
    ? ""
    : `\n${exitCode === null ? "killed" : `exit code ${exitCode}`}`;
  if (shown === "" && exit === "") return [];
  return text(`${shown === "" ? "" : `${fence}\n${shown.replace(/\n$/, "")}\n${fence}`}${exit}`);
}

/** One changed file as `diff` content, a hunk each (a summary as text when it has no diff). */
export function changeContent(change: FileChangeView): ToolCallContent[] {
  const path = change.movedTo ?? change.path;
  const hunks = diffHunks(change.diff);
  if (hunks.length === 0) {
    return change.summary ? text(`${change.displayPath}: ${change.summary}`) : [];
  }
  return hunks.map((h) => ({
    type: "diff",
    path,
    oldText: change.kind === "add" ? null : h.oldText,
    newText: change.kind === "delete" ? "" : h.newText,
  }));
}

/** One hunk of a unified diff: the text before and after, and the first line after. */
export interface DiffHunk {
  oldText: string;
  newText: string;
  newStart?: number;
}

/** The hunks of a unified diff (file headers skipped, `\ No newline` notes dropped). */
export function diffHunks(diff: string): DiffHunk[] {
  const hunks: Array<{ old: string[]; new: string[]; newStart?: number }> = [];
  let current: (typeof hunks)[number] | undefined;
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    // `@@ -1,2 +1,3 @@`, or a bare `@@` (with context after it) as patches and edits write them.
    const header = line.match(/^@@(?: -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@)?/);
    if (header) {
      current = { old: [], new: [], ...(header[1] ? { newStart: Number(header[1]) } : {}) };
      hunks.push(current);
    } else if (current && !line.startsWith("\\")) {
      // An empty line is an empty context line whose space was trimmed.
      const body = line.slice(1);
      if (line[0] !== "+") current.old.push(body);
      if (line[0] !== "-") current.new.push(body);
    }
  }
  return hunks.map((h) => ({
    oldText: h.old.join("\n"),
    newText: h.new.join("\n"),
    ...(h.newStart !== undefined ? { newStart: h.newStart } : {}),
  }));
}

/** A plan or to-do list as the entries of a `plan` update (priority medium, as the OI fork). */
export function planEntries(items: PlanItem[]): PlanEntry[] {
  return items.map((item) => ({
    content: item.text,
    priority: "medium",
    status: item.status === "cancelled" ? "completed" : item.status,
  }));
}

/** The end of `output`, at most `MAX_OUTPUT_CHARS`, cut at a line start. */
function tailOf(output: string): string {
  if (output.length <= MAX_OUTPUT_CHARS) return output;
  const cut = output.slice(-MAX_OUTPUT_CHARS);
  const start = cut.indexOf("\n") + 1;
  return `…\n${cut.slice(start)}`;
}

function text(value: string): ToolCallContent[] {
  const shown = tailOf(value);
  return shown === "" ? [] : [{ type: "content", content: { type: "text", text: shown } }];
}
