/**
 * A saved session as a document to export (`/export`, `interpreter export`): who said what, in
 * file order, with each tool call read as a command, a file change or another tool's use, and its
 * result beside it. Pure: the renderers (markdown.ts, html.ts) turn it into text.
 *
 * The conversation is the whole record, not what the model continues from: a compaction leaves
 * what came before it and adds a note; a history record (a rewind, a harness switch's
 * translation) replaces what it replaced.
 */
import type { Block, Message } from "../../model/message.ts";
import type { SessionRecord } from "../../store/mod.ts";
import { proposedChanges } from "../tool_views/proposed_changes.ts";
import type { FileChangeView } from "../tool_views/tool_view_types.ts";

/** A tool call as the session reads it: its capability and input, when the harness knows it. */
export interface ReadCall {
  capability?: string;
  input?: unknown;
}

/** One part of an exported conversation. */
export type ExportEntry =
  | { kind: "user"; text: string }
  | { kind: "agent"; text: string; thinking?: string }
  | { kind: "tool"; call: ExportCall }
  | { kind: "note"; text: string };

/** A tool call and what came back. */
export interface ExportCall {
  id: string;
  /** The tool as the model called it. */
  tool: string;
  /** A command it ran, a file change, or anything else (its arguments as JSON). */
  view:
    | { kind: "command"; command: string }
    | { kind: "change"; changes: Pick<FileChangeView, "displayPath" | "kind" | "diff">[] }
    | { kind: "other"; args: string };
  /** The result text the model got; undefined when the session stopped before it returned. */
  result?: string;
  isError: boolean;
}

/** What the document says about its session. */
export interface ExportMeta {
  sessionId: string;
  /** The session's name (`/rename`), when it has one. */
  name?: string;
  model: string;
  provider: string;
  cwd: string;
  /** ISO time it started. */
  created: string;
}

/** A whole exported conversation. */
export interface ExportDoc {
  title: string;
  meta: ExportMeta;
  entries: ExportEntry[];
}

/** Reads one tool call of harness `harness` (the one in use when it was made). */
export type CallReader = (
  call: Extract<Block, { type: "tool_call" }>,
  harness: string,
) => ReadCall;

/** The note put where the history was compacted. */
export const COMPACTION_NOTE =
  "The conversation was compacted here: the model continued from a summary of what came before.";

/** The document of a session's `events`, its harness at the start and how calls are read. */
export function exportDoc(
  events: readonly SessionRecord[],
  opts: { meta: ExportMeta; harness: string; readCall: CallReader },
): ExportDoc {
  const builder = new DocBuilder(opts.readCall, opts.harness, opts.meta.cwd);
  for (const event of events) builder.add(event);
  const entries = builder.entries();
  return { title: titleOf(opts.meta, entries), meta: opts.meta, entries };
}

/** The session's name, else its first prompt's first line, else its id. */
function titleOf(meta: ExportMeta, entries: ExportEntry[]): string {
  if (meta.name) return meta.name;
  const first = entries.find((e) => e.kind === "user")?.text.trim().split("\n")[0];
  if (!first) return `Session ${meta.sessionId}`;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

class DocBuilder {
  #entries: ExportEntry[] = [];
  #calls = new Map<string, ExportCall>();
  /** Where the last compaction note is, and the messages that compaction kept. */
  #compacted: { at: number; messages: string[] } = { at: 0, messages: [] };
  #readCall: CallReader;
  #harness: string;
  #cwd: string;

  constructor(readCall: CallReader, harness: string, cwd: string) {
    this.#readCall = readCall;
    this.#harness = harness;
    this.#cwd = cwd;
  }

  add(event: SessionRecord): void {
    switch (event.type) {
      case "user_message":
      case "assistant_message":
      case "tool_result":
        return this.#message(event.message);
      case "harness_switch":
        this.#harness = event.harness;
        return;
      case "compaction":
        this.#entries.push({ kind: "note", text: COMPACTION_NOTE });
        this.#compacted = {
          at: this.#entries.length,
          messages: event.messages.map((m) => JSON.stringify(m)),
        };
        return;
      case "history":
        return this.#replace(event.messages);
    }
  }

  entries(): ExportEntry[] {
    return this.#entries;
  }

  /** What came after the last compaction, replaced by `messages` (less what it kept). */
  #replace(messages: readonly Message[]): void {
    this.#entries.length = this.#compacted.at;
    const kept = new Set(this.#compacted.messages);
    for (const m of messages) if (!kept.has(JSON.stringify(m))) this.#message(m);
  }

  #message(m: Message): void {
    if (m.role === "user") {
      if (m.systemRole) return;
      const text = textOf(m.blocks.filter((b) => b.type !== "text" || !b.context));
      if (text.trim()) this.#entries.push({ kind: "user", text });
      return;
    }
    if (m.role === "tool_result") {
      const call = this.#calls.get(m.callId);
      if (!call) {
        this.#entries.push({ kind: "tool", call: orphan(m) });
        return;
      }
      call.result = textOf(m.blocks);
      call.isError = m.isError;
      return;
    }
    const text = textOf(m.blocks);
    const thinking = m.blocks.flatMap((b) => b.type === "thinking" && b.text ? [b.text] : []);
    if (text.trim() || thinking.length) {
      this.#entries.push({
        kind: "agent",
        text,
        ...(thinking.length ? { thinking: thinking.join("\n\n") } : {}),
      });
    }
    for (const block of m.blocks) {
      if (block.type !== "tool_call") continue;
      const call: ExportCall = {
        id: block.id,
        tool: block.name,
        view: viewOf(block, this.#readCall(block, this.#harness), this.#cwd),
        isError: false,
      };
      this.#calls.set(block.id, call);
      this.#entries.push({ kind: "tool", call });
    }
  }
}

/** A result whose call is not in the record (it was compacted away). */
function orphan(m: Extract<Message, { role: "tool_result" }>): ExportCall {
  return {
    id: m.callId,
    tool: m.name,
    view: { kind: "other", args: "" },
    result: textOf(m.blocks),
    isError: m.isError,
  };
}

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Fields
    : undefined;
}

/** The capabilities whose calls ran a command; `command` is their input's command line. */
const COMMAND_CAPABILITIES = new Set(["shell.run", "shell.start"]);

/** How a call reads: by capability when known, else by the usual argument names. */
function viewOf(
  block: Extract<Block, { type: "tool_call" }>,
  read: ReadCall,
  cwd: string,
): ExportCall["view"] {
  const input = fields(read.input);
  const args = fields(block.args);
  const command = commandOf(read.capability, input, args);
  if (command !== undefined) return { kind: "command", command };
  const changes = read.capability && input ? changesOf(read.capability, input, cwd) : [];
  if (changes.length > 0) return { kind: "change", changes };
  const shown = block.args ?? block.rawArgs ?? {};
  return { kind: "other", args: JSON.stringify(shown, null, 2) };
}

function commandOf(
  capability: string | undefined,
  input: Fields | undefined,
  args: Fields | undefined,
): string | undefined {
  if (capability && COMMAND_CAPABILITIES.has(capability)) return lineOf(input?.command);
  if (capability) return undefined;
  return lineOf(args?.command) ?? lineOf(args?.cmd);
}

function lineOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(" ");
  return undefined;
}

/** The files an edit's input changes, with their diffs (nothing is read from disk). */
function changesOf(
  capability: string,
  input: Fields,
  cwd: string,
): Pick<FileChangeView, "displayPath" | "kind" | "diff">[] {
  const question = { capability, subject: JSON.stringify(input), reason: "", unsandboxed: false };
  return proposedChanges(question, cwd).map(({ displayPath, kind, diff }) => ({
    displayPath,
    kind,
    diff,
  }));
}

/** A message's text; an image named by its type. */
function textOf(blocks: readonly Block[]): string {
  return blocks.map((b) => {
    if (b.type === "text") return b.text;
    if (b.type === "image") return `[image: ${b.mime}]`;
    return "";
  }).join("");
}
