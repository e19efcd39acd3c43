/**
 * Forks a saved session: its events, up to now or up to the end of one of the user's turns, are
 * copied into a new session file with a new id. The original file is only read, never written.
 */
import { join } from "node:path";
import { SessionError } from "./errors.ts";
import type { SessionRecord } from "./records.ts";
import { MAX_NAME_CHARS, readSessionNames, setSessionName } from "./names.ts";
import { readSession } from "./read.ts";
import { checkpointsDir, createSession, type SessionWriter } from "./store.ts";

/** Options of `forkSession()`. */
export interface ForkOptions {
  /**
   * Copy up to and including the exchange of the user's Nth prompt (1-based, in the order they
   * were typed); default: everything.
   */
  turn?: number;
  /** The fork's creation time; default now. */
  now?: () => Date;
}

/** A new session made by `forkSession()`. */
export interface ForkedSession {
  id: string;
  file: string;
  /** The session it was copied from. */
  from: { id: string; file: string };
  /** The user's prompts the copy holds. */
  turns: number;
  /** The fork's name, when the original had one: `NAME (fork)`. */
  name?: string;
  /** What reading the original skipped, and a name that could not be copied, one sentence each. */
  notes: string[];
}

/** Copies the session file `file` into a new session under `home` (see the module comment). */
export async function forkSession(
  home: string,
  file: string,
  opts: ForkOptions = {},
): Promise<ForkedSession> {
  const saved = await readSession(file);
  const { header } = saved;
  const end = forkEnd(saved.events, opts.turn, file);
  const { type: _t, version: _v, id: _id, created: _c, interpreterVersion: _iv, ...kept } = header;
  const writer = await createSession(home, { ...kept, created: opts.now?.() ?? new Date() });
  try {
    await copyEvents(writer, saved.events.slice(0, end));
    await writer.close();
    await linkTree(checkpointsDir(file), checkpointsDir(writer.file));
  } catch (e) {
    await writer.close().catch(() => {});
    await Deno.remove(writer.file).catch(() => {});
    await Deno.remove(checkpointsDir(writer.file), { recursive: true }).catch(() => {});
    throw new SessionError(`Cannot fork session "${file}": ${(e as Error).message}`, {
      file,
      cause: e,
    });
  }
  const notes = [...saved.notes];
  const name = await copyName(home, header.id, writer.id).catch((e: Error) => {
    notes.push(`The fork has no name: ${e.message}`);
    return undefined;
  });
  return {
    id: writer.id,
    file: writer.file,
    from: { id: header.id, file },
    turns: userTurns(saved.events.slice(0, end)).length,
    ...(name ? { name } : {}),
    notes,
  };
}

/**
 * How many of `events` a fork up to the end of turn `turn` copies: everything before the next
 * prompt (or all of them for the last turn or no `turn`). A turn the session does not have is a
 * `SessionError` naming the turns it has.
 */
export function forkEnd(
  events: readonly SessionRecord[],
  turn: number | undefined,
  file = "the session",
): number {
  if (turn === undefined) return events.length;
  const starts = userTurns(events);
  if (!Number.isInteger(turn) || turn < 1 || turn > starts.length) {
    const has = starts.length === 0 ? "it has no prompt yet" : `it has turns 1 to ${starts.length}`;
    throw new SessionError(`Cannot fork "${file}" at turn ${turn}: ${has}`, {
      file,
      hint: starts.length === 0
        ? "Fork it without a turn number, or send a prompt first"
        : `Give a turn number from 1 to ${starts.length}, or none to copy it all`,
    });
  }
  return starts[turn] ?? events.length;
}

/**
 * The index of each event that starts a turn: a user message with something the user typed
 * (harness context, such as an environment block or a reminder, is not typed).
 */
export function userTurns(events: readonly SessionRecord[]): number[] {
  const starts: number[] = [];
  events.forEach((event, i) => {
    if (event.type !== "user_message" || event.message.systemRole) return;
    if (event.message.blocks.some((b) => b.type !== "text" || !b.context)) starts.push(i);
  });
  return starts;
}

async function copyEvents(writer: SessionWriter, events: readonly SessionRecord[]): Promise<void> {
  // Appends are written in call order; the first that fails is reported.
  await Promise.all(events.map((event) => writer.append(event)));
}

/**
 * Gives the fork the checkpoint contents its records name (so /undo and /rewind work in it):
 * hard links, as the contents are never changed once written, or copies across file systems.
 */
async function linkTree(from: string, to: string): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(from));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  await Deno.mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of entries) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory) await linkTree(source, target);
    else if (entry.isFile) {
      await Deno.link(source, target).catch(() => Deno.copyFile(source, target));
    }
  }
}

/** Names the fork `NAME (fork)` when the original is named `NAME`. */
async function copyName(home: string, from: string, to: string): Promise<string | undefined> {
  const name = (await readSessionNames(home)).get(from);
  if (name === undefined) return undefined;
  const suffix = " (fork)";
  const room = MAX_NAME_CHARS - suffix.length;
  const chars = [...name];
  const base = chars.length > room ? `${chars.slice(0, room - 1).join("")}…` : name;
  return await setSessionName(home, to, `${base}${suffix}`);
}
