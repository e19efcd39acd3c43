/**
 * Protected names that do not exist yet (reference/sandbox.md §2.5): a sandboxed command must
 * not create `.git`, `.agents` or `.openinterpreter` under a writable root, and the user's tree
 * must look the same after the session as before it.
 *
 * bwrap can only mount over something that exists. So just before a command starts, the session
 * creates each missing name as a placeholder, an empty folder with mode 0555 made with `mkdir`
 * (never over something that appeared meanwhile), and the command binds it read-only onto
 * itself. An empty folder is what git ignores, on the host and in the sandbox: a `.git` folder
 * without a repository in it makes git look further up, and `git status` skips empty folders. (An
 * empty file breaks host git with "invalid gitfile format", and a `/dev/null` bound over one shows
 * up in `git status` and makes `git add -A` fail.) A session running as root gives the
 * folder to uid 65534: in the user namespace of a sandbox only root is mapped, so root's
 * capabilities there do not reach it and the mode keeps the file-tool helper, which does not bind
 * it, from writing into it through a symlink.
 *
 * The placeholders stay while any sandbox that covers them may still run (see `run_record.ts`:
 * removing a mount point on the host would uncover it in every running sandbox, background jobs
 * included) and are removed as soon as none can.
 *
 * Several sessions may share a workspace. Each holds a shared `flock` on every placeholder its
 * commands may cover, and a placeholder is removed only under an exclusive lock, so no session
 * (nor the start-up sweep) removes one that another live session relies on; a session that
 * crashed holds no lock, and the next session's `sweepPlaceholders()` removes what it left.
 *
 * The file-tool helper never needs placeholders: Deno's `--deny-write` names the protected paths
 * whether they exist or not. `isPlaceholder()` lets it skip them when it binds protected paths.
 */
import { basename, join } from "node:path";
import { allMountPoints } from "./_proc_facts.ts";
import { revoke, runState, runStates } from "./run_record.ts";

/**
 * Other agents' setup names (`lib/setups/locations.ts`), read-only where they exist. A missing one
 * gets no placeholder (an empty `.mcp.json` folder would break those agents): one a command creates
 * is held back from the next session (`lib/workspace/held_back.ts`).
 */
// deno-fmt-ignore
export const SETUP_PROTECTED_NAMES: readonly string[] = Object.freeze([
  ".claude", ".gemini", ".qwen", ".opencode", ".cursor", ".codex", ".mcp.json", "opencode.json",
  "opencode.jsonc",
]);

/** Protected names re-bound read-only under every writable root unless the caller says otherwise. */
export const DEFAULT_PROTECTED_NAMES: readonly string[] = Object.freeze([
  ".git",
  ".agents",
  ".openinterpreter",
  ...SETUP_PROTECTED_NAMES,
]);

/** Whether a missing protected `name` gets a placeholder (ours do; other agents' do not). */
export function coveredWhenMissing(name: string): boolean {
  return !SETUP_PROTECTED_NAMES.includes(name);
}

/** The permission bits of a placeholder folder. */
export const PLACEHOLDER_MODE = 0o555;
/** The owner of placeholders a root session makes: unmapped in every sandbox. */
const PLACEHOLDER_OWNER = 65534;

/** How long a run record may stay unclaimed before an idle check revokes it. */
const CLAIM_GRACE_MS = 10_000;
/** How soon after a command starts, and at most how seldom, the session checks whether it can
 * remove the placeholders (each check runs one `/bin/sh` that reads `/proc`). */
const RECLAIM_FIRST_MS = 100;
const RECLAIM_MAX_MS = 2_000;
/** How long disposing waits for the session's sandboxes to end before leaving placeholders. */
const DISPOSE_WAIT_MS = 5_000;

/** Whether `path` is a placeholder: an empty folder (not a symlink) with mode 0555. */
export async function isPlaceholder(path: string): Promise<boolean> {
  const info = await Deno.lstat(path).catch(notFound);
  return info !== undefined && await placeholderShaped(path, info);
}

async function placeholderShaped(path: string, info: Deno.FileInfo): Promise<boolean> {
  if (!info.isDirectory || ((info.mode ?? 0) & 0o7777) !== PLACEHOLDER_MODE) return false;
  try {
    for await (const _ of Deno.readDir(path)) return false;
    return true;
  } catch {
    return false;
  }
}

/** What one command must cover, from `PlaceholderGuard.cover()`. */
export interface Cover {
  /** Protected paths that exist (real paths, symlinks resolved), to bind read-only. */
  existing: string[];
  /** Placeholders to bind read-only onto themselves. */
  placeholders: string[];
  /** The run record the launcher must claim; absent when there is no placeholder. */
  record?: string;
}

/** Options of `PlaceholderGuard`. */
export interface PlaceholderGuardOptions {
  /** Canonical writable roots. */
  roots: string[];
  names: readonly string[];
  /**
   * A canonical folder for run records that sandboxed commands cannot write. Its owner removes it
   * after disposing the guard, so that no launcher that has not started yet ever can.
   */
  recordDir: string;
}

interface Held {
  path: string;
  file: Deno.FsFile;
  ino: number | null;
}

interface Run {
  record: string;
  issued: number;
}

/** The placeholders of one session and the runs that may cover them. */
export class PlaceholderGuard implements AsyncDisposable {
  readonly #opts: PlaceholderGuardOptions;
  readonly #held = new Map<string, Held>();
  #runs: Run[] = [];
  #serial: Promise<unknown> = Promise.resolve();
  #count = 0;
  readonly #id = crypto.randomUUID().slice(0, 8);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay = RECLAIM_FIRST_MS;
  #closing = false;

  /** Every protected path, once per session. */
  readonly #paths: string[];
  /** Protected paths found to be the user's plain folder or file, by what `lstat` said then. */
  readonly #known = new Map<string, string>();

  constructor(opts: PlaceholderGuardOptions) {
    this.#opts = opts;
    this.#paths = opts.roots.flatMap((root) => opts.names.map((name) => join(root, name)));
  }

  /**
   * Makes every missing protected name a placeholder and returns what a command starting now must
   * cover, with the run record its launcher claims. The guard then checks now and then whether
   * it can remove them; with `watch: false` the caller, who sees the process end, calls `watch()`.
   */
  cover(opts: { watch?: boolean } = {}): Promise<Cover> {
    return this.#exclusive(async () => {
      if (this.#closing) throw new Error("Cannot sandbox a command: the session sandbox is closed");
      const existing: string[] = [];
      const placeholders: string[] = [];
      const found = await Promise.all(this.#paths.map((path) => this.#hold(path)));
      found.forEach((got, i) => {
        if (got === "placeholder") placeholders.push(this.#paths[i]);
        else if (got !== undefined) existing.push(got);
      });
      if (placeholders.length === 0) return { existing, placeholders };
      const record = join(this.#opts.recordDir, `run-${++this.#count}-${this.#id}`);
      this.#runs.push({ record, issued: Date.now() });
      if (opts.watch ?? true) this.watch();
      return { existing, placeholders, record };
    });
  }

  /** Checks soon, then less and less often, until the placeholders could be removed. */
  watch(): void {
    this.#delay = RECLAIM_FIRST_MS;
    this.#schedule();
  }

  /**
   * Removes this session's placeholders if no command that covered them can still run, and
   * resolves true when none are left. `revokeUnclaimed` revokes records whose launcher has not
   * started yet, however recent (when the session ends); otherwise only stale ones are.
   */
  reclaim(opts: { revokeUnclaimed?: boolean } = {}): Promise<boolean> {
    return this.#exclusive(async () => {
      const states = this.#runs.length ? await runStates(this.#runs.map((r) => r.record)) : [];
      for (const [i, run] of this.#runs.entries()) {
        if (states[i] === "running") return false;
        if (states[i] === "unclaimed" && !(await this.#revoke(run, opts))) return false;
      }
      for (const held of this.#held.values()) await release(held);
      this.#held.clear();
      // The records stay until the record folder goes: a launcher started late, or twice, must
      // find its record taken and not run uncovered.
      this.#runs = [];
      return true;
    });
  }

  /** Waits (bounded) for the session's sandboxes to end, then removes what is left to remove. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#timer);
    const deadline = Date.now() + DISPOSE_WAIT_MS;
    let clean = await this.reclaim({ revokeUnclaimed: true });
    while (!clean && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      clean = await this.reclaim({ revokeUnclaimed: true });
    }
    await this.#exclusive(() => {
      for (const held of this.#held.values()) held.file.close();
      this.#held.clear();
      return Promise.resolve();
    });
    if (clean) await sweepPlaceholders(this.#opts.roots, this.#opts.names);
  }

  /**
   * "placeholder" when `path` is (now) a placeholder this session holds, else its real path.
   *
   * What an earlier command found is reused when one `lstat` shows the same entry: a placeholder
   * this session holds (the same folder with the placeholder mode; something put into it since
   * only keeps it from being removed), or a folder or file of the user's at the same path, whose
   * real path is that path since the roots are canonical. Symlinks, whose targets may move, and
   * folders with the placeholder mode, which another session may own, are looked at in full.
   */
  async #hold(path: string): Promise<string | "placeholder" | undefined> {
    // Synchronous: it runs for every protected path before each command, and is quick.
    const now = lstatNow(path);
    const held = this.#held.get(path);
    if (held) {
      if (now !== undefined && sameEntry(now, held.ino) && hasPlaceholderMode(now)) {
        return "placeholder";
      }
      held.file.close();
      this.#held.delete(path);
    }
    const stamp = now && !now.isSymlink && !hasPlaceholderMode(now) ? entryStamp(now) : undefined;
    if (stamp !== undefined && this.#known.get(path) === stamp) return path;
    this.#known.delete(path);
    for (let attempt = 0; attempt < 5; attempt++) {
      const info = attempt === 0 ? now : await Deno.lstat(path).catch(notFound);
      if (info !== undefined && !(await placeholderShaped(path, info))) {
        const real = await Deno.realPath(path).catch(notFound);
        if (real === path && attempt === 0 && stamp !== undefined) this.#known.set(path, stamp);
        return real;
      }
      // Other agents' names are protected only where they exist (`coveredWhenMissing()`).
      if (info === undefined && !coveredWhenMissing(basename(path))) return undefined;
      const got = info === undefined ? await create(path) : await adopt(path);
      if (got === "unneeded") return undefined;
      if (got) {
        this.#held.set(path, got);
        return "placeholder";
      }
    }
    throw new Error(`Cannot protect "${path}": it keeps changing; the command was not run`);
  }

  /** Revokes an unclaimed record unless it is too recent; true when it will never run now. */
  async #revoke(run: Run, opts: { revokeUnclaimed?: boolean }): Promise<boolean> {
    if (!opts.revokeUnclaimed && Date.now() - run.issued < CLAIM_GRACE_MS) return false;
    return await revoke(run.record) || await runState(run.record) === "over";
  }

  /** Checks again later, less often the longer the session's sandboxes keep running. */
  #schedule(): void {
    if (this.#timer !== undefined || this.#closing) return;
    const timer = setTimeout(async () => {
      this.#timer = undefined;
      this.#delay = Math.min(this.#delay * 2, RECLAIM_MAX_MS);
      const clean = await this.reclaim().catch(() => false);
      if (!clean) this.#schedule();
    }, this.#delay);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#serial.then(fn);
    this.#serial = next.catch(() => {});
    return next;
  }
}

/**
 * Removes placeholders at the protected names under `roots` that no live session holds and no
 * mount namespace covers (left by a session that crashed); returns the paths removed.
 */
export async function sweepPlaceholders(
  roots: string[],
  names: readonly string[],
): Promise<string[]> {
  const candidates: string[] = [];
  for (const root of roots) {
    for (const name of names) {
      if (await isPlaceholder(join(root, name))) candidates.push(join(root, name));
    }
  }
  if (candidates.length === 0) return [];
  const covered = await allMountPoints();
  const removed: string[] = [];
  for (const path of candidates) {
    if (covered.has(path)) continue;
    const file = await Deno.open(path, { read: true }).catch(notFound);
    if (!file) continue;
    const held = { path, file, ino: (await file.stat()).ino };
    if (await held.file.tryLock(true)) {
      if (await removeIfUnchanged(held)) removed.push(path);
    }
    file.close();
  }
  return removed;
}

/**
 * Creates `path` as a placeholder and locks it; undefined when something else is there now, and
 * "unneeded" when this process may not create it, since then a sandboxed command may not either.
 */
async function create(path: string): Promise<Held | "unneeded" | undefined> {
  try {
    await Deno.mkdir(path, { mode: PLACEHOLDER_MODE });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return undefined;
    if (error instanceof Deno.errors.PermissionDenied) return "unneeded";
    if ((error as { code?: unknown }).code === "EROFS") return "unneeded";
    throw error;
  }
  await Deno.chmod(path, PLACEHOLDER_MODE); // the umask may have taken bits off
  if (Deno.uid() === 0) {
    // Best effort: where uid 65534 does not exist (a narrow user namespace) root keeps it.
    await Deno.chown(path, PLACEHOLDER_OWNER, PLACEHOLDER_OWNER).catch(() => {});
  }
  return await adopt(path);
}

/** Locks the placeholder at `path` (made by another session, or left behind) for this one. */
async function adopt(path: string): Promise<Held | undefined> {
  const file = await Deno.open(path, { read: true }).catch(notFound);
  if (!file) return undefined;
  return await locked({ path, file, ino: (await file.stat()).ino });
}

/**
 * Takes a shared lock on `held`, then checks that it is still the placeholder at its path: a
 * remover may have held the exclusive lock and removed it in between.
 */
async function locked(held: Held): Promise<Held | undefined> {
  await held.file.lock(false);
  if (await isStill(held)) return held;
  held.file.close();
  return undefined;
}

function hasPlaceholderMode(info: Deno.FileInfo): boolean {
  return info.isDirectory && ((info.mode ?? 0) & 0o7777) === PLACEHOLDER_MODE;
}

function sameEntry(info: Deno.FileInfo, ino: number | null): boolean {
  return ino !== null && info.ino === ino;
}

/** What identifies an entry between two `lstat`s: device, inode, type and mode. */
function entryStamp(info: Deno.FileInfo): string | undefined {
  if (info.ino === null || info.dev === null) return undefined;
  return `${info.dev}:${info.ino}:${info.mode}`;
}

async function isStill(held: Held): Promise<boolean> {
  const info = await Deno.lstat(held.path).catch(notFound);
  return info !== undefined && info.ino === held.ino && await placeholderShaped(held.path, info);
}

/** Removes `held` when no other session holds it; closes it either way. */
async function release(held: Held): Promise<void> {
  try {
    if (await held.file.tryLock(true)) await removeIfUnchanged(held);
  } finally {
    held.file.close();
  }
}

/**
 * Removes the placeholder `held` (exclusively locked) if it is still the one at its path; a
 * folder that is no longer empty stays (`rmdir` refuses it).
 */
async function removeIfUnchanged(held: Held): Promise<boolean> {
  if (!(await isStill(held))) return false;
  return await Deno.remove(held.path).then(() => true, () => false);
}

function lstatNow(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    return notFound(error);
  }
}

function notFound(error: unknown): undefined {
  if (error instanceof Deno.errors.NotFound) return undefined;
  throw error;
}
