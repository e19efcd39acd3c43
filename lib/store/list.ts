/** Finds saved sessions: the picker's list, the newest one for a folder, an id or its prefix. */
import { basename, join, resolve } from "node:path";
import { textOf } from "../model/message.ts";
import { SessionError } from "./errors.ts";
import type { SessionHeader, SessionOrigin } from "./records.ts";
import { parseHeaderLine, readSession, type SavedSession } from "./read.ts";
import { sessionsRoot } from "./store.ts";
import { UUID_PATTERN } from "./uuid.ts";

/** One saved session, as a picker shows it. */
export interface SessionSummary {
  id: string;
  file: string;
  /** When the session started. */
  created: Date;
  /** When the file was last written. */
  modified: Date;
  cwd: string;
  origin: SessionOrigin;
  header: SessionHeader;
  /** The text of the first user message (at most `PROMPT_PREVIEW` characters), if any. */
  firstPrompt?: string;
}

/** Filters for `findSessions()`. */
export interface FindOptions {
  /** Only sessions started in this folder (or, with `alsoUnder`, below that one). */
  cwd?: string;
  /** With `cwd`: sessions started anywhere below this folder count too (a repository's worktrees). */
  alsoUnder?: string;
  origin?: SessionOrigin;
  /** Only sessions that hold a message the user typed (not a fresh `/new` one, say). */
  withPrompt?: boolean;
  /** Stop after this many matches (the newest). */
  limit?: number;
  /** Called for each file that is skipped because it cannot be read as a session. */
  onSkipped?: (file: string, error: Error) => void;
}

/** How much of the first prompt a summary keeps. */
const PROMPT_PREVIEW = 500;

const FILE_NAME = new RegExp(`^session-.*-(${UUID_PATTERN.source})\\.jsonl$`);
const CHUNK = 64 * 1024;

/** The sessions under `home` that match `opts`, newest first. */
export async function findSessions(
  home: string,
  opts: FindOptions = {},
): Promise<SessionSummary[]> {
  const cwd = opts.cwd === undefined ? undefined : resolve(opts.cwd);
  const found: SessionSummary[] = [];
  for await (const day of sessionDays(home)) {
    for (const file of day) {
      try {
        const summary = await sessionSummary(file);
        if (cwd !== undefined && !inPlace(resolve(summary.cwd), cwd, opts.alsoUnder)) continue;
        if (opts.origin && summary.origin !== opts.origin) continue;
        if (opts.withPrompt && summary.firstPrompt === undefined) continue;
        found.push(summary);
      } catch (e) {
        opts.onSkipped?.(file, e as Error);
      }
    }
    // Folders are by local date: finishing the day keeps the order right within it.
    if (opts.limit !== undefined && found.length >= opts.limit) break;
  }
  found.sort((a, b) => b.created.getTime() - a.created.getTime() || (b.id < a.id ? -1 : 1));
  return opts.limit === undefined ? found : found.slice(0, opts.limit);
}

/**
 * The file of the session `ref` names: a path to a session file, a session id, or the start of
 * one (at least 4 characters). A `SessionError` when none or more than one session matches.
 * (Front ends resolve what the user typed with lib/session's `resolveOpening()`, which also
 * takes session names.)
 */
export async function findSessionFile(home: string, ref: string): Promise<string> {
  if (isPathRef(ref)) {
    const file = resolve(ref);
    const info = await Deno.stat(file).catch(() => undefined);
    if (!info?.isFile) throw new SessionError(`Session file "${ref}" does not exist`);
    return file;
  }
  if (!isIdPrefix(ref)) {
    throw new SessionError(`"${ref}" is not a session id`, {
      hint: 'Give a session id (or its first characters) as shown by "interpreter resume"',
    });
  }
  const matches = await sessionsByIdPrefix(home, ref);
  if (matches.length === 1) return matches[0].file;
  if (matches.length === 0) {
    throw new SessionError(`No session with id "${ref}" in "${sessionsRoot(home)}"`, {
      hint: 'Run "interpreter resume" to pick one from the list',
    });
  }
  const ids = matches.slice(0, 5).map((m) => m.id).join(", ");
  throw new SessionError(`Session id "${ref}" is ambiguous: ${matches.length} match (${ids})`, {
    hint: "Give more characters of the id",
  });
}

/** Whether `ref` names a session file rather than an id or a name: it has a slash or `.jsonl`. */
export function isPathRef(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl");
}

/** Whether `ref` could be a session id or its start: 4 to 36 hex digits and hyphens. */
export function isIdPrefix(ref: string): boolean {
  return /^[0-9a-f-]{4,36}$/i.test(ref);
}

/**
 * The saved sessions whose id starts with `prefix` (any case), newest first; only the one whose
 * id is `prefix` when there is such a session.
 */
export async function sessionsByIdPrefix(
  home: string,
  prefix: string,
): Promise<{ id: string; file: string }[]> {
  const wanted = prefix.toLowerCase();
  const matches: { id: string; file: string }[] = [];
  for await (const day of sessionDays(home)) {
    for (const file of day) {
      const id = FILE_NAME.exec(basename(file))?.[1];
      if (id === wanted) return [{ id, file }];
      if (id?.startsWith(wanted)) matches.push({ id, file });
    }
  }
  return matches;
}

/** Reads the session `ref` names (see `findSessionFile()`). */
export async function readSessionByRef(home: string, ref: string): Promise<SavedSession> {
  return readSession(await findSessionFile(home, ref));
}

/** The session files of each day folder, newest day first, files in reverse name order. */
async function* sessionDays(home: string): AsyncGenerator<string[]> {
  const root = sessionsRoot(home);
  for (const year of await childNames(root, /^\d{4}$/)) {
    for (const month of await childNames(join(root, year), /^\d{2}$/)) {
      for (const day of await childNames(join(root, year, month), /^\d{2}$/)) {
        const dir = join(root, year, month, day);
        const files = await childNames(dir, FILE_NAME, { files: true });
        if (files.length > 0) yield files.map((name) => join(dir, name));
      }
    }
  }
}

/** Names in `dir` that match `pattern`, in reverse order; none when `dir` does not exist. */
async function childNames(
  dir: string,
  pattern: RegExp,
  opts: { files?: boolean } = {},
): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if ((opts.files ? entry.isFile : entry.isDirectory) && pattern.test(entry.name)) {
        names.push(entry.name);
      }
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return names.sort().reverse();
}

/** Reads a session file's header and the lines up to the first user message, no further. */
export async function sessionSummary(file: string): Promise<SessionSummary> {
  using handle = await Deno.open(file, { read: true });
  const modified = (await handle.stat()).mtime ?? new Date(0);
  const decoder = new TextDecoder();
  const buf = new Uint8Array(CHUNK);
  let header: SessionHeader | undefined;
  let firstPrompt: string | undefined;
  let rest = "";
  while (firstPrompt === undefined) {
    const n = await handle.read(buf);
    if (n === null) break;
    const lines = (rest + decoder.decode(buf.subarray(0, n), { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      if (!header) header = parseHeaderLine(line, file);
      else firstPrompt ??= userPrompt(line);
    }
  }
  if (!header) header = parseHeaderLine(rest, file, { incomplete: true });
  return {
    id: header.id,
    file,
    created: new Date(header.created),
    modified,
    cwd: header.cwd,
    origin: header.origin,
    header,
    firstPrompt: firstPrompt?.slice(0, PROMPT_PREVIEW),
  };
}

function userPrompt(line: string): string | undefined {
  if (!line.includes('"user_message"')) return undefined;
  try {
    const event = JSON.parse(line);
    if (event?.type !== "user_message" || !Array.isArray(event.message?.blocks)) return undefined;
    const typed = event.message.blocks.filter((b: { context?: boolean }) => !b.context);
    // Harness context (a reminder, the environment) is not what the user typed.
    return event.message.systemRole || typed.length === 0 ? undefined : textOf(typed);
  } catch {
    return undefined;
  }
}

/** A session's folder is `cwd`, or lies below `under` when that is given. */
function inPlace(folder: string, cwd: string, under: string | undefined): boolean {
  return folder === cwd || (under !== undefined && folder.startsWith(`${resolve(under)}/`));
}
