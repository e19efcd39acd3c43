/**
 * What the entries at some paths are, held so that a change cannot go unnoticed: a prepared
 * sandbox's binds were made for the protected paths as they were, and a protected folder that
 * is removed on the host is unmounted in every sandbox, so whatever replaces it would be
 * writable there. Each entry (a symlink's target) stays open while held: its inode cannot be
 * reused by a new entry at the same path, so device and inode identify it for as long as needed.
 *
 * The look-ups (`lstat`, which opens nothing) are synchronous: one takes microseconds, where an
 * asynchronous one costs tens of them, and they run several times for every sandboxed command.
 * Opening stays asynchronous: a FIFO swapped in after the look-up would block the opener.
 */

/** One path as it was when held. */
type Entry =
  | { kind: "missing" }
  | { kind: "entry"; dev: number; ino: number; mode: number; link?: string };

/** Entries held open; release them when done. */
export class HeldPaths {
  readonly paths: string[];
  readonly entries: Entry[];
  readonly #files: Deno.FsFile[];

  private constructor(paths: string[], entries: Entry[], files: Deno.FsFile[]) {
    this.paths = paths;
    this.entries = entries;
    this.#files = files;
  }

  /**
   * Holds the entries at `paths` as they are now; undefined when one cannot be held (not a
   * folder or regular file, or not readable), since a change to it could not be told then.
   */
  static async hold(paths: string[]): Promise<HeldPaths | undefined> {
    const files: Deno.FsFile[] = [];
    const entries = await Promise.all(
      paths.map((path) => open(path, files).catch(() => undefined)),
    );
    if (entries.some((entry) => entry === undefined)) {
      for (const file of files) file.close();
      return undefined;
    }
    return new HeldPaths(paths, entries as Entry[], files);
  }

  /** Whether every path still names the entry it named when held. */
  unchanged(): Promise<boolean> {
    return Promise.resolve(this.paths.every((path, i) => {
      const entry = look(path);
      return entry !== undefined && same(this.entries[i], entry);
    }));
  }

  release(): void {
    for (const file of this.#files) file.close();
    this.#files.length = 0;
  }
}

/**
 * Whether `after` holds what `before` did, but for placeholders (empty folders with
 * `placeholderMode`, bound read-only by path) where there was none or another one before: the
 * guard makes them for missing names, and a fresh one where it had just removed the last.
 */
export function sameBut(before: HeldPaths, after: HeldPaths, placeholderMode: number): boolean {
  const placeholder = (entry: Entry) =>
    entry.kind === "entry" && entry.link === undefined &&
    (entry.mode & 0o170000) === 0o040000 && (entry.mode & 0o7777) === placeholderMode;
  return before.entries.every((entry, i) => {
    const later = after.entries[i];
    if (same(entry, later)) return true;
    return (entry.kind === "missing" || placeholder(entry)) && placeholder(later);
  });
}

function same(a: Entry, b: Entry): boolean {
  if (a.kind === "missing" || b.kind === "missing") return a.kind === b.kind;
  return a.dev === b.dev && a.ino === b.ino && a.mode === b.mode && a.link === b.link;
}

/** The entry at `path` now (a symlink by its target); undefined when it cannot be told. */
function look(path: string): Entry | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    return undefined;
  }
  if (!info.isSymlink) return identity(info);
  try {
    const link = Deno.realPathSync(path);
    return { ...identity(Deno.statSync(link)), link };
  } catch {
    return undefined;
  }
}

async function open(path: string, files: Deno.FsFile[]): Promise<Entry | undefined> {
  const entry = look(path);
  if (entry?.kind !== "entry") return entry;
  if ((entry.mode & 0o170000) !== 0o040000 && (entry.mode & 0o170000) !== 0o100000) {
    return undefined;
  }
  const file = await Deno.open(entry.link ?? path, { read: true });
  files.push(file);
  const opened = identity(file.statSync());
  return opened.dev === entry.dev && opened.ino === entry.ino ? entry : undefined;
}

function identity(info: Deno.FileInfo): Entry & { kind: "entry" } {
  return { kind: "entry", dev: info.dev ?? -1, ino: info.ino ?? -1, mode: info.mode ?? -1 };
}
