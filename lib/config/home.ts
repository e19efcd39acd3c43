/**
 * Modes of what interpreter keeps in its home (`~/.openinterpreter`): sessions, history, state
 * and config hold prompts, command output and the paths of the user's projects, so only the user
 * may read them. Folders are made 0700 and files 0600; a home an earlier version left open to
 * others (0755 folders, 0644 files) is narrowed once, when a session opens.
 */
import { dirname, join } from "node:path";

/** Mode of every folder interpreter makes in its home. */
const HOME_DIR_MODE = 0o700;
/** Mode of every file interpreter writes in its home. */
export const HOME_FILE_MODE = 0o600;
/** The owner's permission bits; narrowing keeps them and drops the group's and others'. */
const OWNER_BITS = 0o700;

/**
 * The home's entries interpreter writes itself. The user's own (`skills/`, `harnesses/`,
 * `AGENTS.md`) keep their modes: a skill's scripts may need theirs.
 */
const AGENT_ENTRIES = ["config.toml", "history.jsonl", "sessions", "state", "run"];

/** Makes `dir` and its missing parents, each 0700. */
export async function makeHomeDir(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true, mode: HOME_DIR_MODE });
}

/** Replaces `file` (mode 0600) through a temp file beside it, so a reader never sees half. */
export async function writeHomeFile(file: string, text: string): Promise<void> {
  await makeHomeDir(dirname(file));
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { createNew: true, mode: HOME_FILE_MODE });
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Takes the group and other bits off the agent's entries in `home`, then off `home` itself.
 * The home goes last and marks the work done: a home that is already private costs one stat.
 * Symlinks are not followed, and what cannot be changed (a read-only disk) stays as it is.
 */
export async function secureHome(home: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  const info = await Deno.stat(home).catch(() => undefined);
  if (!info?.isDirectory || !openToOthers(info)) return;
  for (const name of AGENT_ENTRIES) await narrowTree(join(home, name));
  await Deno.chmod(home, info.mode! & OWNER_BITS).catch(() => {});
}

async function narrowTree(path: string): Promise<void> {
  const info = await Deno.lstat(path).catch(() => undefined);
  if (!info || info.isSymlink) return;
  if (info.isDirectory) {
    const entries = await Array.fromAsync(Deno.readDir(path)).catch(() => []);
    for (const entry of entries) await narrowTree(join(path, entry.name));
  }
  if (openToOthers(info)) await Deno.chmod(path, info.mode! & OWNER_BITS).catch(() => {});
}

function openToOthers(info: Deno.FileInfo): boolean {
  return info.mode !== null && (info.mode & 0o077) !== 0;
}
