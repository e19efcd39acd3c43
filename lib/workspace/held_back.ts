/**
 * Files that change what the next session trusts (project config, skills, a repository's
 * config, `AGENTS.override.md` and the fallback instruction names, other agents' instruction
 * files, settings, MCP files, commands and sub-agents) and that changed while a
 * session was running are held back in later sessions until the user allows them: a command the
 * model ran may have written them (in full access, or a hostile one anywhere the sandbox let
 * it). Files the user changes between sessions load as usual. (AGENTS.md itself is the agent's
 * to edit, `/init` writes it, and every change to it shows in the repository's diff.)
 *
 * A session records a digest of every watched file when it starts (`open/<id>.json`, so that a
 * crash still leaves the record) and, when it ends, adds what changed since to `held_back.json`
 * as path → digest. A later session holds a file back while its digest is still that one.
 * A folder that could not be checked file by file when a session ended (too big, say) is held
 * back whole, whatever it holds now, until the user allows it (see `_watched_digests.ts`).
 */
import { dirname, join, relative } from "node:path";
import { writeHomeFile } from "../config/home.ts";
import { digestFiles, digestFolders, type Digests, uncheckedReason } from "./_watched_digests.ts";

/**
 * Files watched in every folder from the working directory up to the root: instruction files
 * (`AGENTS.override.md`, and the other agents' ones read like it) and the other agents' setup
 * files that hold runnable definitions (`lib/setups/locations.ts`; its test checks that every
 * project location there is watched here).
 */
export const WATCHED_FILE_NAMES: readonly string[] = Object.freeze([
  "AGENTS.override.md",
  "CLAUDE.md",
  ".claude/CLAUDE.md",
  "CLAUDE.local.md",
  "GEMINI.md",
  "QWEN.md",
  ".mcp.json",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".gemini/settings.json",
  ".qwen/settings.json",
  "opencode.json",
  "opencode.jsonc",
  ".cursor/mcp.json",
]);

/** Folders of other agents' (and our) commands and sub-agents, watched in every folder. */
export const SETUP_WATCHED_FOLDERS: readonly string[] = Object.freeze([
  ".agents/commands",
  ".agents/agents",
  ".claude/commands",
  ".claude/agents",
  ".gemini/commands",
  ".gemini/agents",
  ".qwen/commands",
  ".qwen/agents",
  ".codex/agents",
  ".opencode/commands",
  ".opencode/command",
  ".opencode/agents",
  ".opencode/agent",
]);

/** What this session holds back, and the record it closes when it ends. */
export interface ChangeWatch {
  /** Held-back absolute paths, sorted: files, and folders held back whole. */
  held: string[];
  /** True for a held-back file and for anything in a folder held back whole. */
  isHeld(path: string): boolean;
  /** The start-up lines naming what was held back, why, and how to allow it; none when nothing. */
  notices: string[];
  /**
   * Watches the instruction files of `names` (`project_doc_fallback_filenames`) too, in every
   * folder from the working directory up to the root, from now on: call it before any command
   * runs. Those that changed while an earlier session ran join `held` and `notices`.
   */
  watchNames(names: readonly string[]): Promise<void>;
  /** Records what changed during this session. */
  close(): Promise<void>;
}

/** What one session watches: folders (see `watchedFolders()`) and single files. */
interface Watched {
  folders: string[];
  files: string[];
}

/** The digests of everything `watched` names. */
async function digestWatched(watched: Watched): Promise<Digests> {
  return { ...await digestFolders(watched.folders), ...await digestFiles(watched.files) };
}

/** Starts watching the trust-relevant files between `cwd` and `root` (the project root). */
export async function openChangeWatch(
  opts: { cwd: string; root: string; home: string },
): Promise<ChangeWatch> {
  const dir = join(opts.home, "state");
  const heldFile = join(dir, "held_back.json");
  const openDir = join(dir, "open");
  const watched = watchedPaths(opts.cwd, opts.root, opts.home, WATCHED_FILE_NAMES);
  const start = await digestWatched(watched);
  const recorded = await foldOpenRecords(heldFile, openDir, start);
  const heldFolders = heldWholeFolders(recorded, start);
  const inHeldFolder = (path: string) => heldFolders.some((folder) => isUnder(path, folder));
  const heldNow = (paths: string[]) =>
    paths.filter((path) => start[path] && recorded[path] === start[path] && !inHeldFolder(path));
  const fileSet = new Set(heldNow(Object.keys(start)));
  const id = `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
  const own = join(openDir, `${id}.json`);
  const record = () => writeHomeFile(own, JSON.stringify({ ...watched, start }));
  await record();
  const held: string[] = [];
  const notices: string[] = [];
  const show = () => {
    const files = [...fileSet].sort();
    held.splice(0, held.length, ...[...files, ...heldFolders].sort());
    notices.splice(
      0,
      notices.length,
      ...noticeLines(files, heldFolders, { recorded, cwd: opts.cwd }),
    );
  };
  show();
  return {
    held,
    isHeld: (path) => fileSet.has(path) || inHeldFolder(path),
    notices,
    async watchNames(names) {
      const more = watchedPaths(opts.cwd, opts.root, opts.home, names).files
        .filter((path) => !watched.files.includes(path));
      if (more.length === 0) return;
      watched.files.push(...more);
      Object.assign(start, await digestFiles(more));
      await record();
      heldNow(more).forEach((path) => fileSet.add(path));
      show();
    },
    async close() {
      const end = await digestWatched(watched);
      await mergeChanges(heldFile, changedSince(start, end));
      await Deno.remove(own).catch(() => {});
    },
  };
}

/**
 * Whether a session starting now in `cwd` would hold `path` back, found without recording
 * anything (for `interpreter debug config`); sessions still running are not asked.
 */
export async function peekHeldBack(
  opts: { cwd: string; root: string; home: string },
): Promise<(path: string) => boolean> {
  const recorded = await readJson<Digests>(join(opts.home, "state", "held_back.json")) ?? {};
  const now = await digestWatched(watchedPaths(opts.cwd, opts.root, opts.home, WATCHED_FILE_NAMES));
  const folders = heldWholeFolders(recorded, now);
  return (path) =>
    (now[path] !== undefined && recorded[path] === now[path]) ||
    folders.some((folder) => isUnder(path, folder));
}

/** The held-back records forgotten by `releaseHeldBack()`, sorted. */
export interface Released {
  files: string[];
  /** Folders that were held back whole. */
  folders: string[];
}

/** Forgets the held-back records of files and folders under `root`. */
export async function releaseHeldBack(home: string, root: string): Promise<Released> {
  const heldFile = join(home, "state", "held_back.json");
  const openDir = join(home, "state", "open");
  const current = await digestWatched(watchedPaths(root, root, home, WATCHED_FILE_NAMES));
  const recorded = await foldOpenRecords(heldFile, openDir, current);
  const released = Object.keys(recorded).filter((path) => isUnder(path, root)).sort();
  const folders = released.filter((path) => uncheckedReason(recorded[path]));
  for (const path of released) delete recorded[path];
  await writeHomeFile(heldFile, JSON.stringify(recorded, null, 1));
  return { files: released.filter((path) => !folders.includes(path)), folders };
}

/**
 * Folders recorded as not checked when a session ended that still hold something watched: what
 * that session did in them is unknown, so no later change by anyone makes them trusted again.
 */
function heldWholeFolders(recorded: Digests, start: Digests): string[] {
  const present = Object.keys(start);
  return Object.keys(recorded)
    .filter((folder) => uncheckedReason(recorded[folder]))
    .filter((folder) => present.some((path) => isUnder(path, folder)))
    .sort();
}

function noticeLines(
  files: string[],
  folders: string[],
  opts: { recorded: Digests; cwd: string },
): string[] {
  const name = (path: string) => relative(opts.cwd, path) || path;
  const lines = folders.map((folder) =>
    `Held back the whole folder ${name(folder)}: after an earlier session it held ` +
    `${uncheckedReason(opts.recorded[folder])}, so what that session changed in it is unknown. ` +
    `Nothing in it is loaded; review it, then run "interpreter trust-changes" to allow it`
  );
  if (files.length === 0) return lines;
  const names = files.map(name);
  const shown = names.length > 4 ? [...names.slice(0, 4), `${names.length - 4} more`] : names;
  return [
    `Held back ${files.length === 1 ? "a file" : `${files.length} files`} that changed ` +
    `while an earlier session ran (${shown.join(", ")}): not loaded; review ` +
    `${files.length === 1 ? "it" : "them"}, then run "interpreter trust-changes" to allow`,
    ...lines,
  ];
}

/**
 * The folders whose files decide what a session loads: `.openinterpreter` (config, hooks),
 * `.agents/skills`, `.git` (its config, or the pointer file) and the command and sub-agent folders
 * (`SETUP_WATCHED_FOLDERS`) in each folder from `cwd` up to
 * `root`, and `root`'s `.codex/skills`; and the instruction files of `names` in each of those
 * folders. The interpreter home itself is not project config.
 */
function watchedPaths(cwd: string, root: string, home: string, names: readonly string[]): Watched {
  const folders: string[] = [];
  const files: string[] = [];
  for (let dir = cwd;; dir = dirname(dir)) {
    folders.push(join(dir, ".openinterpreter"), join(dir, ".agents", "skills"), join(dir, ".git"));
    folders.push(...SETUP_WATCHED_FOLDERS.map((name) => join(dir, name)));
    if (dir !== home) files.push(...names.map((name) => join(dir, name)));
    if (dir === root || dirname(dir) === dir) break;
  }
  folders.push(join(root, ".codex", "skills"));
  return { folders: folders.filter((folder) => folder !== home), files: [...new Set(files)] };
}

/**
 * Paths that appeared or changed between `start` and `end`, with their digest at `end`. A folder
 * not checked at `end` counts as changed: nothing shows that it is not.
 */
function changedSince(start: Digests, end: Digests): Digests {
  const changed: Digests = {};
  for (const [path, digest] of Object.entries(end)) {
    if (uncheckedReason(digest) || start[path] !== digest) changed[path] = digest;
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
    const record = await readJson<Partial<Watched> & { start: Digests }>(file);
    if (record?.start) {
      // Only what that session watched: another project's files were never in its start.
      const folders = record.folders ?? [];
      const files = record.files ?? [];
      const watched = Object.entries(current).filter(([path]) =>
        files.includes(path) || folders.some((folder) => isUnder(path, folder))
      );
      const now = { ...(await digestWatched({ folders, files })), ...Object.fromEntries(watched) };
      Object.assign(recorded, changedSince(record.start, now));
    }
    await Deno.remove(file).catch(() => {});
  }
  await writeHomeFile(heldFile, JSON.stringify(recorded, null, 1));
  return recorded;
}

async function mergeChanges(heldFile: string, changed: Digests): Promise<void> {
  if (Object.keys(changed).length === 0) return;
  const recorded = await readJson<Digests>(heldFile) ?? {};
  await writeHomeFile(heldFile, JSON.stringify({ ...recorded, ...changed }, null, 1));
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(file)) as T;
  } catch {
    return undefined;
  }
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
