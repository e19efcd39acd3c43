/**
 * Files that change what the next session trusts (project config, skills, a repository's
 * config) and that changed while a session was running are held back in later sessions until
 * the user allows them: a command the model ran may have written them (in full access, or a
 * hostile one anywhere the sandbox let it). Files the user changes between sessions load as usual.
 *
 * A session records a digest of every watched file when it starts (`open/<id>.json`, so that a
 * crash still leaves the record) and, when it ends, adds what changed since to `held_back.json`
 * as path → digest. A later session holds a file back while its digest is still that one.
 */
import { basename, dirname, join, relative } from "node:path";

/** The watched files as absolute path → SHA-256 hex of their bytes. */
type Digests = Record<string, string>;

/** Files under one watched folder past this many are not digested (a runaway skills folder). */
const MAX_FILES_PER_FOLDER = 200;

/** What this session holds back, and the record it closes when it ends. */
export interface ChangeWatch {
  /** Held-back absolute paths, sorted. */
  held: string[];
  isHeld(path: string): boolean;
  /** The one start-up line naming what was held back and how to allow it; "" when nothing. */
  notice: string;
  /** Records what changed during this session. */
  close(): Promise<void>;
}

/** Starts watching the trust-relevant files between `cwd` and `root` (the project root). */
export async function openChangeWatch(
  opts: { cwd: string; root: string; home: string },
): Promise<ChangeWatch> {
  const dir = join(opts.home, "state");
  const heldFile = join(dir, "held_back.json");
  const openDir = join(dir, "open");
  const folders = watchedFolders(opts.cwd, opts.root, opts.home);
  const start = await digestAll(folders);
  const recorded = await foldOpenRecords(heldFile, openDir, start);
  const held = Object.keys(start).filter((path) => recorded[path] === start[path]).sort();
  const id = `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
  const own = join(openDir, `${id}.json`);
  await atomicWriteText(own, JSON.stringify({ folders, start }));
  const heldSet = new Set(held);
  return {
    held,
    isHeld: (path) => heldSet.has(path),
    notice: held.length ? noticeLine(held, opts.cwd) : "",
    async close() {
      const end = await digestAll(folders);
      await mergeChanges(heldFile, changedSince(start, end));
      await Deno.remove(own).catch(() => {});
    },
  };
}

/** Forgets the held-back records of files under `root`; returns the paths released. */
export async function releaseHeldBack(home: string, root: string): Promise<string[]> {
  const heldFile = join(home, "state", "held_back.json");
  const openDir = join(home, "state", "open");
  const current = await digestAll(watchedFolders(root, root, home));
  const recorded = await foldOpenRecords(heldFile, openDir, current);
  const released = Object.keys(recorded).filter((path) => isUnder(path, root)).sort();
  for (const path of released) delete recorded[path];
  await atomicWriteText(heldFile, JSON.stringify(recorded, null, 1));
  return released;
}

function noticeLine(held: string[], cwd: string): string {
  const names = held.map((path) => relative(cwd, path) || path);
  const shown = names.length > 4 ? [...names.slice(0, 4), `${names.length - 4} more`] : names;
  return `Held back ${held.length === 1 ? "a file" : `${held.length} files`} that changed ` +
    `while an earlier session ran (${shown.join(", ")}): not loaded; review ` +
    `${held.length === 1 ? "it" : "them"}, then run "interpreter trust-changes" to allow`;
}

/** Files of a watched folder that are watched on their own, not as a whole tree. */
const SINGLE_FILES: Record<string, string[]> = {
  ".openinterpreter": ["config.toml", "hooks.json"],
  ".git": [".", "config"],
};

/**
 * The folders whose files decide what a session loads: `.openinterpreter` (config, hooks),
 * `.agents/skills` and `.git` (its config, or the pointer file) in each folder from `cwd` up to
 * `root`, and `root`'s `.codex/skills`. The interpreter home itself is not project config.
 */
function watchedFolders(cwd: string, root: string, home: string): string[] {
  const folders: string[] = [];
  for (let dir = cwd;; dir = dirname(dir)) {
    folders.push(join(dir, ".openinterpreter"), join(dir, ".agents", "skills"), join(dir, ".git"));
    if (dir === root || dirname(dir) === dir) break;
  }
  folders.push(join(root, ".codex", "skills"));
  return folders.filter((folder) => folder !== home);
}

async function digestAll(folders: string[]): Promise<Digests> {
  const out: Digests = {};
  for (const folder of folders) {
    const single = SINGLE_FILES[basename(folder)];
    const files = single ? single.map((name) => join(folder, name)) : await filesUnder(folder);
    for (const file of files) await digestInto(out, file);
  }
  return out;
}

/** Adds `path`'s digest when it is a readable regular file (a `.git` pointer file included). */
async function digestInto(out: Digests, path: string): Promise<void> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isFile) return;
  const bytes = await Deno.readFile(path).catch(() => undefined);
  if (!bytes) return;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  out[path] = Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function filesUnder(folder: string): Promise<string[]> {
  const files: string[] = [];
  const pending = [folder];
  while (pending.length && files.length < MAX_FILES_PER_FOLDER) {
    const dir = pending.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) pending.push(path);
      else files.push(path);
    }
  }
  return files.sort().slice(0, MAX_FILES_PER_FOLDER);
}

/** Paths that appeared or changed between `start` and `end`, with their digest at `end`. */
function changedSince(start: Digests, end: Digests): Digests {
  const changed: Digests = {};
  for (const [path, digest] of Object.entries(end)) {
    if (start[path] !== digest) changed[path] = digest;
  }
  return changed;
}

/**
 * The held-back records, after folding in the start records that sessions left open (they
 * crashed, or still run): what differs from their start now counts as changed by them.
 */
async function foldOpenRecords(
  heldFile: string,
  openDir: string,
  current: Digests,
): Promise<Digests> {
  const recorded = await readJson<Digests>(heldFile) ?? {};
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(openDir));
  } catch {
    return recorded;
  }
  if (entries.length === 0) return recorded;
  for (const entry of entries) {
    const file = join(openDir, entry.name);
    const record = await readJson<{ folders: string[]; start: Digests }>(file);
    if (record?.start) {
      const now = { ...(await digestAll(record.folders ?? [])), ...current };
      Object.assign(recorded, changedSince(record.start, now));
    }
    await Deno.remove(file).catch(() => {});
  }
  await atomicWriteText(heldFile, JSON.stringify(recorded, null, 1));
  return recorded;
}

async function mergeChanges(heldFile: string, changed: Digests): Promise<void> {
  if (Object.keys(changed).length === 0) return;
  const recorded = await readJson<Digests>(heldFile) ?? {};
  await atomicWriteText(heldFile, JSON.stringify({ ...recorded, ...changed }, null, 1));
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(file)) as T;
  } catch {
    return undefined;
  }
}

/** Writes `text` to `file` through a temp file beside it, so a reader never sees half of it. */
async function atomicWriteText(file: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
