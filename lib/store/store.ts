/**
 * Writes session files: `<home>/sessions/YYYY/MM/DD/session-YYYY-MM-DDThh-mm-ss-<id>.jsonl`
 * (local date and time of creation in the path, UTC in the timestamps inside). The format is
 * described in `records.ts`.
 */
import { join } from "node:path";
import { VERSION } from "../version.ts";
import { SessionError } from "./errors.ts";
import {
  SESSION_FORMAT_VERSION,
  type SessionHeader,
  sessionHeaderSchema,
  type SessionRecordInput,
  sessionRecordSchema,
} from "./records.ts";
import { describeIssue, parseEventLine, parseHeaderLine } from "./read.ts";
import { UUID_PATTERN, uuidV7 } from "./uuid.ts";

/** What the caller says about a new session; the rest of the header is filled in. */
export type SessionHeaderInput =
  & Omit<
    SessionHeader,
    "type" | "version" | "id" | "created" | "interpreterVersion"
  >
  & { id?: string; created?: Date };

/** Options for writing a session. */
export interface WriterOptions {
  /** The clock for event timestamps (tests pass a fixed one). */
  now?: () => Date;
}

/** The folder under `home` that holds every session file. */
export function sessionsRoot(home: string): string {
  return join(home, "sessions");
}

/** The file a session with `id` created at `created` is written to. */
export function sessionFilePath(home: string, created: Date, id: string): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const [y, m, d] = [created.getFullYear(), p(created.getMonth() + 1), p(created.getDate())];
  const time = `${p(created.getHours())}-${p(created.getMinutes())}-${p(created.getSeconds())}`;
  return join(sessionsRoot(home), String(y), m, d, `session-${y}-${m}-${d}T${time}-${id}.jsonl`);
}

/** The folder beside a session file that holds the contents its checkpoints keep. */
export function checkpointsDir(sessionFile: string): string {
  return `${sessionFile.replace(/\.jsonl$/, "")}.checkpoints`;
}

/** Starts a session file under `home` and writes its header line. */
export async function createSession(
  home: string,
  header: SessionHeaderInput,
  opts: WriterOptions = {},
): Promise<SessionWriter> {
  const created = header.created ?? opts.now?.() ?? new Date();
  const id = header.id ?? uuidV7(created.getTime());
  if (!new RegExp(`^${UUID_PATTERN.source}$`).test(id)) {
    throw new TypeError(`A session id must be a lower-case UUID, not "${id}"`);
  }
  const { id: _id, created: _created, ...rest } = header;
  const checked = sessionHeaderSchema.safeParse({
    type: "session",
    version: SESSION_FORMAT_VERSION,
    id,
    created: created.toISOString(),
    interpreterVersion: VERSION,
    ...rest,
  });
  if (!checked.success) {
    throw new TypeError(`Invalid session header: ${describeIssue(checked.error)}`);
  }
  const full = checked.data;
  const file = sessionFilePath(home, created, id);
  await Deno.mkdir(join(file, ".."), { recursive: true, mode: 0o700 });
  const handle = await Deno.open(file, { createNew: true, append: true, mode: 0o600 });
  const writer = new SessionWriter(file, full, handle, {
    ...opts,
    firstLine: JSON.stringify(full),
  });
  try {
    await writer.flush();
  } catch (e) {
    await writer.close().catch(() => {});
    throw e;
  }
  return writer;
}

/**
 * Opens an existing session file to append to it. A last line cut off mid-write is removed
 * first, so that the next event starts on a line of its own; `writer.notes` says so.
 */
export async function reopenForAppend(
  file: string,
  opts: WriterOptions = {},
): Promise<SessionWriter> {
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(file, { read: true, append: true });
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw new SessionError(`Cannot open session "${file}": ${why}`, { file, cause: e });
  }
  try {
    const header = parseHeaderLine(await readFirstLine(handle), file);
    const notes = await repairTail(handle, file);
    const writer = new SessionWriter(file, header, handle, opts);
    writer.notes.push(...notes);
    return writer;
  } catch (e) {
    handle.close();
    throw e;
  }
}

/**
 * Appends events to one session file. Each event is one `write` of one complete line to a file
 * opened for append, awaited before `append()` resolves: a process killed at any moment leaves
 * every earlier line intact and at most the line being written incomplete (a power cut can lose
 * more: only `close()` syncs to disk). Appends made without awaiting are written in call order.
 */
export class SessionWriter implements AsyncDisposable {
  /** The session file. */
  readonly file: string;
  /** The session's header line. */
  readonly header: SessionHeader;
  /** What opening the file repaired, one sentence each. */
  readonly notes: string[] = [];
  #handle: Deno.FsFile | undefined;
  #queue: Promise<void> = Promise.resolve();
  #failure: unknown;
  #now: () => Date;

  /** Use `createSession()` or `reopenForAppend()`. */
  constructor(
    file: string,
    header: SessionHeader,
    handle: Deno.FsFile,
    opts: WriterOptions & { firstLine?: string },
  ) {
    this.file = file;
    this.header = header;
    this.#handle = handle;
    this.#now = opts.now ?? (() => new Date());
    if (opts.firstLine !== undefined) this.#writeLine(opts.firstLine).catch(() => {});
  }

  /** The session id. */
  get id(): string {
    return this.header.id;
  }

  /** Validates `event`, stamps it with the time unless it has one, and writes it as one line. */
  append(event: SessionRecordInput): Promise<void> {
    const stamped = { ...event, ts: event.ts ?? this.#now().toISOString() };
    const result = sessionRecordSchema.safeParse(stamped);
    if (!result.success) {
      return Promise.reject(
        new TypeError(`Invalid "${event.type}" session event: ${describeIssue(result.error)}`),
      );
    }
    return this.#writeLine(JSON.stringify(stamped));
  }

  /** Waits until every append so far is written; rejects if one failed. */
  async flush(): Promise<void> {
    await this.#queue;
    if (this.#failure !== undefined) throw this.#failure;
  }

  #writeLine(json: string): Promise<void> {
    const bytes = new TextEncoder().encode(`${json}\n`);
    const write = this.#queue.then(async () => {
      if (this.#failure !== undefined) throw this.#failure;
      const handle = this.#handle;
      if (!handle) throw new TypeError(`Cannot append to session "${this.file}": it is closed`);
      try {
        let done = 0;
        while (done < bytes.length) done += await handle.write(bytes.subarray(done));
      } catch (e) {
        this.#failure = new SessionError(`Cannot write session "${this.file}": ${e}`, {
          file: this.file,
          cause: e,
        });
        throw this.#failure;
      }
    });
    this.#queue = write.catch(() => {});
    return write;
  }

  /**
   * Waits for pending appends, asks the OS to put the data on disk, and closes the file.
   * Calling it again does nothing.
   */
  async close(): Promise<void> {
    await this.#queue;
    const handle = this.#handle;
    this.#handle = undefined;
    if (!handle) return;
    try {
      await handle.syncData();
    } finally {
      handle.close();
    }
  }

  /** Same as `close()`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

const CHUNK = 64 * 1024;

async function readFirstLine(handle: Deno.FsFile): Promise<string> {
  const decoder = new TextDecoder();
  const buf = new Uint8Array(CHUNK);
  let text = "";
  while (!text.includes("\n")) {
    const n = await handle.read(buf);
    if (n === null) break;
    text += decoder.decode(buf.subarray(0, n), { stream: true });
  }
  return text.split("\n")[0];
}

/**
 * Makes the file end with one complete, valid line and "\n": a valid last line missing its
 * "\n" gets one; an incomplete or invalid last line (readers skip it) is cut off, so that it
 * cannot become an invalid line in the middle once more events follow.
 */
async function repairTail(handle: Deno.FsFile, file: string): Promise<string[]> {
  const size = (await handle.stat()).size;
  const last = await readAt(handle, size - 1, 1);
  const ended = last[0] === 0x0a;
  const end = ended ? size - 1 : size;
  const start = await lineStart(handle, end);
  const lastLine = new TextDecoder().decode(await readAt(handle, start, end - start));
  if (start === 0 || parseEventLine(lastLine).ok) {
    if (!ended) await handle.write(new TextEncoder().encode("\n"));
    return [];
  }
  await handle.truncate(start);
  return [`Removed an incomplete or invalid last line from "${file}"`];
}

/** The offset just after the last "\n" before `end`, or 0. */
async function lineStart(handle: Deno.FsFile, end: number): Promise<number> {
  let to = end;
  while (to > 0) {
    const from = Math.max(0, to - CHUNK);
    const newline = (await readAt(handle, from, to - from)).lastIndexOf(0x0a);
    if (newline >= 0) return from + newline + 1;
    to = from;
  }
  return 0;
}

async function readAt(handle: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  const into = new Uint8Array(length);
  await handle.seek(offset, Deno.SeekMode.Start);
  let done = 0;
  while (done < into.length) {
    const n = await handle.read(into.subarray(done));
    if (n === null) throw new SessionError("The session file shrank while it was read");
    done += n;
  }
  return into;
}
