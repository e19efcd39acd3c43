/** Reads a session file back: header, events, the history to continue from, and notes. */
import type * as z from "zod";
import type { Message } from "../model/message.ts";
import { SessionError } from "./errors.ts";
import {
  SESSION_FORMAT_VERSION,
  type SessionHeader,
  sessionHeaderSchema,
  type SessionRecord,
  sessionRecordSchema,
} from "./records.ts";
import { replayHistory } from "./history.ts";

/** A session as read from its file. */
export interface SavedSession {
  file: string;
  header: SessionHeader;
  events: SessionRecord[];
  /** The messages the loop continues from: replayed events, restarted at each compaction. */
  history: Message[];
  /** What reading skipped or repaired, one sentence each, for the user. */
  notes: string[];
  /** The last `tool_state` event's snapshot, to restore the tools' session data from. */
  toolState?: Record<string, unknown>;
  /** The 1-based line of `file` that `toolState` was read from. */
  toolStateLine?: number;
}

/**
 * The largest session file `readSession` reads: more than a session ever holds in practice,
 * and far below what would make reading it exhaust memory.
 */
export const MAX_SESSION_BYTES = 256 * 1024 * 1024;

/**
 * Reads and validates the session file `file`. An incomplete or invalid last line is skipped
 * with a note (a process stopped while writing it); any other invalid line is a `SessionError`
 * naming the file and line.
 */
export async function readSession(file: string): Promise<SavedSession> {
  const text = await readText(file);
  const lines = text.split("\n");
  const lastIndex = lines.findLastIndex((line) => line.trim() !== "");
  if (lastIndex < 0) throw new SessionError(`Session file "${file}" is empty`, { file });
  const ended = lastIndex < lines.length - 1;
  const header = parseHeaderLine(lines[0], file, { incomplete: lastIndex === 0 && !ended });
  const events: SessionRecord[] = [];
  const notes: string[] = [];
  let toolStateLine: number | undefined;
  for (let i = 1; i <= lastIndex; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    const parsed = parseEventLine(line);
    if (parsed.ok) {
      events.push(parsed.event);
      if (parsed.event.type === "tool_state") toolStateLine = i + 1;
    } else if (i === lastIndex) {
      const why = ended ? `it is not a valid event: ${parsed.error}` : "it is incomplete";
      notes.push(`Skipped the last line (${i + 1}) of "${file}": ${why}`);
    } else {
      throw new SessionError(`Cannot read session "${file}" at line ${i + 1}: ${parsed.error}`, {
        file,
        line: i + 1,
        hint: "The file was changed by something other than interpreter; fix or delete that line",
      });
    }
  }
  const replayed = replayHistory(events);
  if (replayed.interruptedCalls.length > 0) {
    const n = replayed.interruptedCalls.length;
    notes.push(`${n} tool call${n === 1 ? "" : "s"} had no result; marked as interrupted`);
  }
  const toolState = events.findLast((e) => e.type === "tool_state")?.state;
  return {
    file,
    header,
    events,
    history: replayed.messages,
    notes,
    ...(toolState ? { toolState, toolStateLine } : {}),
  };
}

/** Parses a header line; a `SessionError` when it is not one this build can read. */
export function parseHeaderLine(
  line: string,
  file: string,
  opts: { incomplete?: boolean } = {},
): SessionHeader {
  const fail = (why: string, hint?: string) =>
    new SessionError(`Cannot read session "${file}": ${why}`, { file, line: 1, hint });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw fail(
      opts.incomplete
        ? "the header line is incomplete (the process stopped as the session started)"
        : "the first line is not JSON",
    );
  }
  const version = (value as { version?: unknown } | null)?.version;
  if ((value as { type?: unknown } | null)?.type !== "session") {
    throw fail('the first line is not a session header (no "type": "session")');
  }
  if (typeof version === "number" && version > SESSION_FORMAT_VERSION) {
    throw fail(
      `it has format version ${version}, and this interpreter reads up to ${SESSION_FORMAT_VERSION}`,
      "Update interpreter to resume this session",
    );
  }
  const result = sessionHeaderSchema.safeParse(value);
  if (!result.success) throw fail(`invalid header: ${describeIssue(result.error)}`);
  return result.data;
}

/** Parses one event line. */
export function parseEventLine(
  line: string,
): { ok: true; event: SessionRecord } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, error: `not JSON (${(e as Error).message})` };
  }
  const result = sessionRecordSchema.safeParse(value);
  if (result.success) return { ok: true, event: result.data };
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== "string") return { ok: false, error: 'not an event (no "type")' };
  const known = sessionRecordSchema.options.some((o) => o.shape.type.value === type);
  if (!known) return { ok: false, error: `unknown event type ${JSON.stringify(type)}` };
  return { ok: false, error: `invalid "${type}" event: ${describeIssue(result.error)}` };
}

/** The first problem zod found, as `path.to.field: message`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * The text of `file`, which must be a regular file of at most `MAX_SESSION_BYTES` (a path given
 * to `resume` can name anything: a FIFO would block, a device would never end).
 */
async function readText(file: string): Promise<string> {
  const fail = (why: string, opts: { cause?: unknown; hint?: string } = {}) =>
    new SessionError(`Cannot read session "${file}": ${why}`, { file, ...opts });
  try {
    if (!(await Deno.stat(file)).isFile) {
      throw fail("it is not a regular file", { hint: "Give the path of a session .jsonl file" });
    }
    using handle = await Deno.open(file, { read: true });
    const { isFile, size } = await handle.stat();
    if (!isFile) throw fail("it is not a regular file");
    if (size > MAX_SESSION_BYTES) {
      throw fail(
        `it has ${size} bytes, more than the ${MAX_SESSION_BYTES} a session file may have`,
        {
          hint: "Check that the path names a session file; start a new session otherwise",
        },
      );
    }
    return new TextDecoder().decode(await readUpTo(handle, size));
  } catch (e) {
    if (e instanceof SessionError) throw e;
    const why = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw fail(why, { cause: e });
  }
}

/** The first `size` bytes of `handle`, fewer if the file ends sooner. */
async function readUpTo(handle: Deno.FsFile, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let done = 0;
  while (done < size) {
    const n = await handle.read(bytes.subarray(done));
    if (n === null) break;
    done += n;
  }
  return bytes.subarray(0, done);
}
