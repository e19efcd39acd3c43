/**
 * The agent's own files for one session: background job output, the tmux configuration, the
 * journal of in-flight writes. They never go in the user's workspace and never through the
 * file-tool helper; the tools reach them only through `ScratchSpace`, which refuses any path
 * outside the folders it made.
 *
 * Layout under the root (`<home>/run`): `<id>.lock`, held locked by the live session, and
 * `<id>/`, its folder. A session that died (even by SIGKILL) leaves an unlocked lock file, so the
 * next session's `cleanStaleSessions()` finds it with one listing and no tree walk. Folders are
 * made 0700 and files 0600, as everything in interpreter's home.
 */
import { join, resolve } from "node:path";
import { removeJournaledTemps, WRITES_FOLDER } from "./write_journal.ts";

/** How old a lock file still under its temporary name must be before a cleaner looks at it. */
const PENDING_LOCK_GRACE_MS = 60_000;

/** Agent-private folders and files of one session. */
export interface ScratchSpace {
  /**
   * Makes a new empty folder and returns its absolute path. With `visibleToCommands` it lies in
   * the session folder, which sandboxed commands can read (job output they may `cat`); otherwise
   * in the host's temp folder, which they cannot see behind their private /tmp (sockets).
   */
  makeDir(prefix: string, opts?: { visibleToCommands?: boolean }): Promise<string>;
  /** Creates a new file (it must not exist yet) to write in pieces. */
  create(path: string): Promise<ScratchWriter>;
  /** Writes a whole file. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** A stream of the file's bytes. */
  open(path: string): Promise<ReadableStream<Uint8Array>>;
  /** Removes a file or a whole folder; a missing one is fine. */
  remove(path: string): Promise<void>;
}

/** A file being written. */
export interface ScratchWriter {
  /** Resolves once all of `data` is in the file, so a reader sees it at once. */
  write(data: Uint8Array): Promise<void>;
  close(): void;
}

/**
 * The scratch space of a session rooted at `root`. Nothing is created until first use, so a
 * session that never needs it costs nothing; disposing removes everything it made.
 */
export class SessionScratch implements ScratchSpace, AsyncDisposable {
  readonly #root: string;
  readonly #id = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  #session: Promise<string> | undefined;
  #journal: Promise<string> | undefined;
  #lock: Deno.FsFile | undefined;
  readonly #dirs = new Set<string>();
  #disposed = false;

  constructor(root: string) {
    this.#root = root;
  }

  /** The journal folder of in-flight writes (see `write_journal.ts`), made on first use. */
  journalDir(): Promise<string> {
    return this.#journal ??= this.#sessionDir().then(async (session) => {
      const dir = join(session, WRITES_FOLDER);
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      return dir;
    });
  }

  async makeDir(prefix: string, opts: { visibleToCommands?: boolean } = {}): Promise<string> {
    if (this.#disposed) throw new TypeError("The scratch space is disposed");
    const parent = opts.visibleToCommands ? await this.#sessionDir() : undefined;
    const dir = await Deno.makeTempDir({ dir: parent, prefix });
    this.#dirs.add(dir);
    return dir;
  }

  async create(path: string): Promise<ScratchWriter> {
    const file = await Deno.open(this.#check(path), { write: true, createNew: true, mode: 0o600 });
    return {
      async write(data) {
        for (let at = 0; at < data.length;) at += await file.write(data.subarray(at));
      },
      close: () => file.close(),
    };
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await Deno.writeFile(this.#check(path), data, { mode: 0o600 });
  }

  async open(path: string): Promise<ReadableStream<Uint8Array>> {
    return (await Deno.open(this.#check(path))).readable;
  }

  async remove(path: string): Promise<void> {
    await removeIfExists(this.#check(path));
    this.#dirs.delete(path);
  }

  /** Removes every folder made, cleans the journal's leftovers and drops the session lock. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const dir of this.#dirs) await removeIfExists(dir).catch(() => {});
    if (!this.#session) return;
    const session = await this.#session.catch(() => undefined);
    if (session) await removeSession(this.#root, this.#id, `${this.#id}.lock`);
    this.#lock?.close();
  }

  #check(given: string): string {
    if (this.#disposed) throw new TypeError("The scratch space is disposed");
    const path = resolve(given);
    for (const dir of this.#dirs) if (path === dir || path.startsWith(`${dir}/`)) return path;
    throw new TypeError(`Cannot use "${given}": it is not in a scratch folder of this session`);
  }

  #sessionDir(): Promise<string> {
    if (this.#disposed) return Promise.reject(new TypeError("The scratch space is disposed"));
    return this.#session ??= this.#open();
  }

  async #open(): Promise<string> {
    await Deno.mkdir(this.#root, { recursive: true, mode: 0o700 });
    // Locked under a temporary name, then renamed: a visible lock file is always locked by a
    // live session or by none, so a cleaner never takes the lock of one that is starting.
    const pending = join(this.#root, `.${this.#id}.lock`);
    this.#lock = await Deno.open(pending, { write: true, createNew: true, mode: 0o600 });
    await this.#lock.lock(true);
    const dir = join(this.#root, this.#id);
    await Deno.mkdir(dir, { mode: 0o700 });
    await Deno.rename(pending, join(this.#root, `${this.#id}.lock`));
    return dir;
  }
}

/**
 * Cleans up after sessions under `root` that ended without disposing their scratch space
 * (killed, crashed): removes the temporary files their in-flight writes left in the workspace
 * and their folders. Costs one listing of `root` when there is nothing to clean. Returns the
 * temporary files it removed.
 */
export async function cleanStaleSessions(root: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await Array.fromAsync(Deno.readDir(root))).map((e) => e.name);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names) {
    const [, pending, id] = /^(\.?)(.+)\.lock$/.exec(name) ?? [];
    if (id === undefined) continue;
    // A lock still under its temporary name may belong to a session that is starting right now.
    if (pending && !(await olderThan(join(root, name), PENDING_LOCK_GRACE_MS))) continue;
    let lock: Deno.FsFile;
    try {
      lock = await Deno.open(join(root, name), { write: true });
    } catch {
      continue;
    }
    try {
      if (await lock.tryLock(true)) removed.push(...await removeSession(root, id, name));
    } finally {
      lock.close();
    }
  }
  return removed;
}

/**
 * Removes a session's journal leftovers, its folder and its lock file `lockName` (which the
 * caller holds locked); returns the temporary files removed.
 */
async function removeSession(root: string, id: string, lockName: string): Promise<string[]> {
  const removed = await removeJournaledTemps(join(root, id, WRITES_FOLDER));
  await removeIfExists(join(root, id));
  await removeIfExists(join(root, lockName));
  return removed;
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  const mtime = await Deno.stat(path).then((s) => s.mtime, () => null);
  return mtime !== null && Date.now() - mtime.getTime() > ms;
}

async function removeIfExists(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}
