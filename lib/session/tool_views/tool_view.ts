/**
 * One typed view of a tool call per kind of capability. The stderr reporter, the REPL
 * transcript and later front ends (the JSON stream, ACP) render these, never the raw
 * capability output, and a view is chosen by capability id, never by the harness's tool name.
 */
import { SOURCE_CAPABILITY_PREFIX } from "../../loop/tool_sources.ts";
import type { SessionEvent } from "../open.ts";
import {
  editorChanges,
  notebookChanges,
  patchChanges,
  readView,
  writeChanges,
} from "./_tool_view_files.ts";
import type {
  PlanItem,
  PlanView,
  SearchView,
  ToolEndEvent,
  ToolStartEvent,
  ToolView,
  ToolViewBase,
  ToolViewBody,
  ToolViewOptions,
} from "./tool_view_types.ts";

export type * from "./tool_view_types.ts";

type Fields = Record<string, unknown>;
type Build = (input: Fields, output: Fields | undefined, cwd?: string) => ToolViewBody;

function fields(value: unknown): Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Fields
    : {};
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** A view of a tool call from its `tool_start`, or its `tool_end` (with the start when known). */
export function toolView(
  event: ToolStartEvent | ToolEndEvent,
  opts: ToolViewOptions = {},
): ToolView {
  const end = event.type === "tool_end" ? event : undefined;
  const input = fields(end?.input ?? (event.type === "tool_start" ? event : opts.start)?.input);
  const failed = end?.isError === true;
  const output = end && !failed ? fields(end.output) : undefined;
  const base: ToolViewBase = {
    callId: event.call.id,
    name: event.call.name,
    capability: event.capability,
    status: !end ? "running" : !failed ? "done" : opts.denied ? "declined" : "failed",
  };
  if (failed) base.error = end.text;
  if (end?.interrupted) base.interrupted = true;
  const capability = event.capability ?? "";
  const build = capability.startsWith(SOURCE_CAPABILITY_PREFIX)
    ? mcpView(capability)
    : BUILDERS[capability] ?? generic(end?.text ?? "");
  return { ...base, ...build(input, output, opts.cwd) };
}

const BUILDERS: Record<string, Build> = {
  "shell.run": (i, o) => ({
    kind: "command",
    command: str(o?.command) ?? str(i.command) ?? "",
    cwd: str(o?.cwd) ?? str(i.cwd),
    ...(o
      ? {
        exitCode: o.exitCode as number | null,
        durationMs: num(o.durationMs),
        output: str(o.output),
        timedOut: o.timedOut === true,
      }
      : {}),
    // An interactive session still running after its yield (exec_session.ts).
    ...(typeof o?.sessionId === "number"
      ? { job: { id: String(o.sessionId), action: "start" as const, running: true } }
      : {}),
  }),
  "shell.write_stdin": (i, o) => ({
    kind: "command",
    command: str(o?.command) ?? "",
    ...(o ? { exitCode: o.exitCode as number | null, output: str(o.output) } : {}),
    job: {
      id: String(num(o?.sessionId) ?? num(i.session_id) ?? ""),
      action: "output",
      running: o && typeof o.sessionId === "number",
    },
  }),
  "shell.start": (i, o) => ({
    kind: "command",
    command: str(o?.command) ?? str(i.command) ?? "",
    cwd: str(o?.cwd) ?? str(i.cwd),
    job: { id: str(o?.id), action: "start", running: o ? true : undefined },
  }),
  "shell.output": (i, o) => ({
    kind: "command",
    command: str(o?.command) ?? "",
    ...(o ? { exitCode: o.exitCode as number | null, output: str(o.output) } : {}),
    job: { id: str(o?.id) ?? str(i.id), action: "output", running: o && o.status === "running" },
  }),
  "shell.stop": (i, o) => ({
    kind: "command",
    command: str(o?.command) ?? "",
    ...(o ? { exitCode: o.exitCode as number | null } : {}),
    job: { id: str(o?.id) ?? str(i.id), action: "stop", running: o ? false : undefined },
  }),
  "fs.apply_patch": (i, o, cwd) => ({ kind: "file_change", changes: patchChanges(i, o, cwd) }),
  "fs.write": (i, o, cwd) => ({ kind: "file_change", changes: writeChanges(i, o, cwd) }),
  "fs.edit": (i, o, cwd) => ({ kind: "file_change", changes: writeChanges(i, o, cwd) }),
  "fs.notebook_edit": (i, o, cwd) => ({
    kind: "file_change",
    changes: notebookChanges(i, o, cwd),
  }),
  "fs.str_replace_editor": (i, o, cwd) =>
    i.command === "view"
      ? { kind: "file_read", ...readView(i, o, cwd) }
      : { kind: "file_change", changes: editorChanges(i, o, cwd) },
  "fs.read": (i, o, cwd) => ({ kind: "file_read", ...readView(i, o, cwd) }),
  "fs.grep": (i, o) => search("grep", str(i.pattern) ?? "", i, o && listed(o.files, o)),
  "fs.glob": (i, o) => search("glob", str(i.pattern) ?? "", i, o && listed(o.files, o)),
  "fs.list": (i, o) => search("list", str(i.path) ?? ".", i, o && listed(o.entries, o)),
  "plan.update": (i, o) => ({
    kind: "plan",
    items: ((o?.plan ?? i.plan ?? []) as Fields[]).map((s) => item(s.step, s.status)),
    ...explained(str(o?.explanation) ?? str(i.explanation)),
  }),
  "todo.write": todoView,
  "todo.read": todoView,
  "web.fetch": (i, o) => ({
    kind: "fetch",
    url: str(o?.url) ?? str(i.url) ?? "",
    ...(o ? { finalUrl: str(o.finalUrl), httpStatus: num(o.status), bytes: num(o.bytes) } : {}),
  }),
  "web.search": (i, o) => ({
    kind: "fetch",
    url: "",
    query: str(o?.query) ?? str(i.query) ?? "",
  }),
  "agent.run": (i, o) => ({
    kind: "subagent",
    prompt: str(i.prompt) ?? "",
    description: str(o?.description) ?? str(i.description),
    agentType: str(o?.subagentType) ?? str(i.subagent_type),
    ...(o
      ? { finalText: str(o.finalText), toolCalls: num(o.toolCalls), outcome: str(o.status) }
      : {}),
  }),
  "user.ask": (i, o) => {
    const answers = new Map(
      ((o?.answers ?? []) as Fields[]).map((a) => [a.question, a.answers as string[]]),
    );
    return {
      kind: "question",
      questions: ((i.questions ?? []) as Fields[]).map((q) => ({
        question: String(q.question),
        ...(str(q.header) ? { header: String(q.header) } : {}),
        ...(o ? { answers: answers.get(q.question) ?? [] } : {}),
      })),
      ...(o ? { answered: o.answered === true } : {}),
    };
  },
};

function search(
  kind: SearchView["search"],
  pattern: string,
  input: Fields,
  found: { count: number; truncated: boolean } | undefined,
): SearchView {
  return { kind: "search", search: kind, pattern, path: str(input.path), ...found };
}

function listed(list: unknown, output: Fields): { count: number; truncated: boolean } {
  return { count: Array.isArray(list) ? list.length : 0, truncated: output.truncated === true };
}

function item(text: unknown, status: unknown): PlanItem {
  const known = ["pending", "in_progress", "completed", "cancelled"];
  const s = status === "done" ? "completed" : known.includes(String(status)) ? status : "pending";
  return { text: String(text ?? ""), status: s as PlanItem["status"] };
}

function explained(explanation: string | undefined): { explanation?: string } {
  return explanation ? { explanation } : {};
}

function todoView(input: Fields, output: Fields | undefined): PlanView {
  const todos = (output?.todos ?? input.todos ?? []) as Fields[];
  return { kind: "plan", items: todos.map((t) => item(t.content ?? t.title, t.status)) };
}

/** An MCP tool's call; its capability is `source:SERVER/TOOL`. */
function mcpView(capability: string): Build {
  const name = capability.slice(SOURCE_CAPABILITY_PREFIX.length);
  const slash = name.indexOf("/");
  const server = slash < 0 ? name : name.slice(0, slash);
  const tool = slash < 0 ? "" : name.slice(slash + 1);
  return (input, output) => {
    const answer = fields(output?.result);
    const result = Array.isArray(answer.content)
      ? {
        content: answer.content,
        structured_content: answer.structuredContent ?? null,
        ...(answer._meta !== undefined ? { _meta: answer._meta } : {}),
      }
      : undefined;
    return {
      kind: "mcp",
      server,
      tool,
      arguments: input,
      ...(result ? { result } : {}),
      ...(output ? { text: str(output.output) ?? "" } : {}),
    };
  };
}

function generic(text: string): Build {
  return (input) => {
    const subject = [input.path, input.pattern, input.url, input.query, input.id, input.name]
      .find((v) => typeof v === "string" && v !== "");
    return { kind: "generic", text, ...(subject ? { subject: String(subject) } : {}) };
  };
}

/**
 * Pairs each call's `tool_end` with its `tool_start` and its denial, for renderers that see one
 * event at a time. Sub-agent calls go under their own `scope` so their ids cannot meet the
 * parent's.
 */
export class ToolCallViews {
  #starts = new Map<string, ToolStartEvent>();
  #denied = new Set<string>();
  #cwd: string | undefined;

  /** Takes note of `event`; the view of the call for a `tool_start` or `tool_end`. */
  see(event: SessionEvent, scope = ""): ToolView | undefined {
    switch (event.type) {
      case "session_started":
        this.#cwd = event.info.cwd;
        return undefined;
      case "tool_denied":
        if (event.callId) this.#denied.add(`${scope}\0${event.callId}`);
        return undefined;
      case "tool_start":
        this.#starts.set(`${scope}\0${event.call.id}`, event);
        return toolView(event, { cwd: this.#cwd });
      case "tool_end": {
        const key = `${scope}\0${event.call.id}`;
        const start = this.#starts.get(key);
        const denied = this.#denied.delete(key);
        this.#starts.delete(key);
        return toolView(event, { start, denied, cwd: this.#cwd });
      }
      default:
        return undefined;
    }
  }
}
