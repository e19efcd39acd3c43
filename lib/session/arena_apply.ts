/**
 * Applying an arena contestant's patch to the user's working tree: the one write the arena makes
 * outside its copies, of a patch a model wrote.
 *
 * Git itself reads what the patch touches (`git apply --numstat`, forward and reversed so that a
 * rename's old name counts, and `--summary` for modes). A patch that makes, changes or deletes a
 * symbolic link, that names a path through a link in the working tree now, or that writes inside
 * a `.git` folder is refused; paths that decide what later sessions trust or run are listed for
 * the user to allow. `git apply` then runs through the safe git runner inside a command sandbox
 * whose only writable root is the working tree, `.git` and the protected names the user did not
 * allow kept read-only, so a link swapped in meanwhile cannot make it write elsewhere. A held-back
 * watch is open while it runs, so trust-relevant files it wrote are held back in later sessions
 * until the user allows them.
 */
import { dirname, join } from "node:path";
import { configHome } from "../config/load.ts";
import { UserError } from "../errors.ts";
import {
  type ChangeWatch,
  openChangeWatch,
  SETUP_WATCHED_FOLDERS,
  WATCHED_FILE_NAMES,
} from "../workspace/held_back.ts";
import { type GitRunner, openGitRunner } from "../workspace/safe_git.ts";
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { DEFAULT_PROTECTED_NAMES } from "../../sandbox/bwrap_args.ts";

/** What a patch would change, as git reads it; every path relative to the repository top. */
export interface PatchReview {
  /** Every path the patch creates, changes, deletes or renames, sorted. */
  files: string[];
  /** Why the patch must not be applied at all, one line per path; empty when it may. */
  refused: string[];
  /** The paths of `files` that decide what later sessions trust or run. */
  protectedPaths: string[];
}

/**
 * How `applyReviewedPatch()` ended: git's first error line when the patch does not apply, and the
 * paths that could not be put back when git failed midway (none: the tree is as it was).
 */
export type PatchOutcome =
  | { applied: true }
  | { applied: false; conflict: string; notRestored?: string[] };

/**
 * Names that make a path trust-relevant wherever they appear in it (compared in lower case): the
 * sandbox's protected names, ours and other agents'.
 */
const TRUST_NAMES = new Set(DEFAULT_PROTECTED_NAMES.map((name) => name.toLowerCase()));

/** Whether `path` (relative, `/`-separated) decides what later sessions trust or run. */
export function isTrustRelevant(path: string): boolean {
  const lowered = path.toLowerCase();
  const parts = lowered.split("/");
  if (parts.some((part) => TRUST_NAMES.has(part) || part.startsWith(".git"))) return true;
  const framed = `/${lowered}/`;
  return WATCHED_FILE_NAMES.some((name) => framed.endsWith(`/${name.toLowerCase()}/`)) ||
    SETUP_WATCHED_FOLDERS.some((folder) => framed.includes(`/${folder.toLowerCase()}/`));
}

/** Whether `path` is or lies inside a `.git` folder (or file), which a patch may never write. */
export function isInsideGitFolder(path: string): boolean {
  return path.toLowerCase().split("/").includes(".git");
}

/** Reads what the patch in `patchFile` would change in the repository whose top is `root`. */
export async function reviewPatch(
  opts: { root: string; patchFile: string; env: Record<string, string> },
): Promise<PatchReview> {
  await using git = await openApplyGit(opts.env, opts.root, { writable: false });
  const numstat = (reverse: boolean) =>
    git.run(["apply", ...(reverse ? ["-R"] : []), "--numstat", "-z", opts.patchFile], opts.root);
  const [forward, backward, summary] = await Promise.all([
    numstat(false),
    numstat(true),
    git.run(["apply", "--summary", opts.patchFile], opts.root),
  ]);
  const files = [...new Set([...numstatPaths(forward), ...numstatPaths(backward)])].sort();
  const patchText = await Deno.readTextFile(opts.patchFile);
  const refused = [
    ...linkModes(summary),
    ...files.filter(isInsideGitFolder).map((path) => `${path} (inside a .git folder)`),
    ...(await linksOnTheWay(opts.root, files)),
  ];
  if (refused.length === 0 && LINK_HEADER.test(patchText)) {
    refused.push("a symbolic link (mode 120000)");
  }
  return { files, refused, protectedPaths: files.filter(isTrustRelevant) };
}

/**
 * Applies the reviewed patch all or nothing: `git apply --check`, then `git apply`, both in the
 * sandbox, a held-back watch open around it; the files are put back as they were if the second
 * fails all the same.
 */
export async function applyReviewedPatch(
  opts: {
    cwd: string;
    root: string;
    patchFile: string;
    review: PatchReview;
    env: Record<string, string>;
  },
): Promise<PatchOutcome> {
  const { root, patchFile, review } = opts;
  const allowed = new Set(review.protectedPaths.map((path) => path.split("/")[0]));
  const watches = await openWatches(opts.cwd, root, review.protectedPaths, opts.env);
  try {
    await using git = await openApplyGit(opts.env, root, { writable: true, allowed });
    // A user's `apply.whitespace=fix` would change the contestant's lines as they go in.
    const apply = ["apply", "--whitespace=nowarn"];
    const checked = await git.result([...apply, "--check", patchFile], root);
    if (!checked.ok) return { applied: false, conflict: checked.error };
    const before = await snapshot(root, review.files);
    const applied = await git.result([...apply, patchFile], root);
    if (applied.ok) return { applied: true };
    const notRestored = await restore(root, before);
    return { applied: false, conflict: applied.error, notRestored };
  } finally {
    for (const watch of watches) await watch.close();
  }
}

/** Paths of `git apply --numstat -z` output: `added TAB deleted TAB path NUL` per file. */
function numstatPaths(out: string): string[] {
  return out.split("\0").filter(Boolean).flatMap((field) => {
    const match = /^[-\d]+\t[-\d]+\t(.*)$/s.exec(field);
    return match ? (match[1] ? [match[1]] : []) : [field];
  });
}

/** A header line of a link's diff: git's summary leaves out links whose mode stays. */
const LINK_HEADER =
  /^(?:new file mode|deleted file mode|old mode|new mode) 120000$|^index [0-9a-f]+\.\.[0-9a-f]+ 120000$/m;

/** The refusals for symbolic links git's summary says the patch makes or deletes (mode 120000). */
function linkModes(summary: string): string[] {
  return summary.split("\n").flatMap((line) => {
    const made = /^ (?:create|delete) mode 120000 (.+)$/.exec(line);
    const changed = /^ mode change (\d+) => (\d+) (.+)$/.exec(line);
    if (made) return [`${made[1]} (a symbolic link)`];
    if (changed && (changed[1] === "120000" || changed[2] === "120000")) {
      return [`${changed[3]} (a symbolic link)`];
    }
    return [];
  });
}

/** The refusals for paths that lead through a symbolic link in the working tree now. */
async function linksOnTheWay(root: string, files: string[]): Promise<string[]> {
  const refused: string[] = [];
  for (const path of files) {
    const link = await firstLink(root, path);
    if (link !== undefined) refused.push(`${path} (${link} is a symbolic link)`);
  }
  return refused;
}

/** The first component of `path` under `root` that is a symbolic link now, if any. */
async function firstLink(root: string, path: string): Promise<string | undefined> {
  const parts = path.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    const info = await Deno.lstat(join(root, prefix)).catch(() => undefined);
    if (info === undefined) return undefined;
    if (info.isSymlink) return prefix;
  }
  return undefined;
}

/** The safe git runner in a sandbox for applying patches; dispose it to close both. */
interface ApplyGit extends AsyncDisposable {
  /** git's stdout; a `UserError` when it fails. */
  run(args: string[], cwd: string): Promise<string>;
  /** Whether git succeeded, and its first error line when not. */
  result(args: string[], cwd: string): Promise<{ ok: true } | { ok: false; error: string }>;
}

/**
 * Opens the safe git runner in a network-less sandbox whose only writable root is the working
 * tree (when `writable`), with the protected top-level names read-only but those `allowed`
 * (never `.git`); a `UserError` when no sandbox can confine git here.
 */
async function openApplyGit(
  env: Record<string, string>,
  root: string,
  opts: { writable: boolean; allowed?: Set<string> },
): Promise<ApplyGit> {
  const sandbox = await openCommandSandbox({
    ...(env.OPENINTERPRETER_BWRAP ? { bwrap: env.OPENINTERPRETER_BWRAP } : {}),
    mode: opts.writable ? "workspace-write" : "read-only",
    writableRoots: opts.writable ? [root] : [],
    networkAccess: false,
    protectedNames: DEFAULT_PROTECTED_NAMES.filter((name) =>
      name === ".git" || !opts.allowed?.has(name)
    ),
    // The patch file and the repository may lie under /tmp: git sees the host's, read-only.
    privateTmp: false,
  });
  if (!sandbox.status.enforced) {
    await sandbox.close();
    throw unconfined(sandbox);
  }
  const runner = await openGitRunner({ env, sandbox });
  return applyGit(runner, sandbox);
}

function applyGit(runner: GitRunner, sandbox: CommandSandbox): ApplyGit {
  const result = async (args: string[], cwd: string) => {
    const out = await runner.run(args, cwd);
    if (out.ok) return { ok: true as const, stdout: out.stdout };
    return { ok: false as const, error: out.skipped ?? out.error ?? "git failed" };
  };
  return {
    result,
    async run(args, cwd) {
      const out = await result(args, cwd);
      if (out.ok) return out.stdout;
      throw new UserError(`Cannot read the patch: git ${args[0]} failed: ${out.error}`, {
        hint:
          "The patch file may be damaged or not a git patch: look at it, or run the arena again",
      });
    },
    async [Symbol.asyncDispose]() {
      await runner[Symbol.asyncDispose]();
      await sandbox.close();
    },
  };
}

function unconfined(sandbox: CommandSandbox): UserError {
  const problem = sandbox.status.problem;
  const cause = (problem?.message ?? `there is no command sandbox on ${Deno.build.os}`)
    .replace(/^Command sandbox unavailable: /, "");
  const hint = (problem?.hint ?? "Install bubblewrap")
    .replace(/; or approve each command to run it unsandboxed$/, "")
    .replace(/,? or restart with --sandbox danger-full-access[^;]*$/, "");
  return new UserError(
    `Cannot apply the patch: git applies it only inside the command sandbox, and ${cause}`,
    { hint },
  );
}

/** Held-back watches over the working directory and every folder a trust-relevant path is in. */
async function openWatches(
  cwd: string,
  root: string,
  protectedPaths: string[],
  env: Record<string, string>,
): Promise<ChangeWatch[]> {
  const home = configHome(env, cwd);
  const folders = new Set([cwd, ...protectedPaths.map((path) => dirname(join(root, path)))]);
  const watches: ChangeWatch[] = [];
  for (const folder of folders) watches.push(await openChangeWatch({ cwd: folder, root, home }));
  return watches;
}

/** What each path held before the patch; for an absent one, the nearest folder that existed. */
type Snapshot = Map<
  string,
  { kind: "file"; bytes: Uint8Array; mode: number } | { kind: "absent"; existing: string } | {
    kind: "other";
  }
>;

async function snapshot(root: string, files: string[]): Promise<Snapshot> {
  const taken: Snapshot = new Map();
  for (const path of files) {
    const full = join(root, path);
    const info = await Deno.lstat(full).catch(() => undefined);
    if (info?.isFile) {
      const mode = (info.mode ?? 0o644) & 0o7777;
      taken.set(path, { kind: "file", bytes: await Deno.readFile(full), mode });
    } else if (info === undefined) {
      taken.set(path, { kind: "absent", existing: await nearestExisting(root, dirname(full)) });
    } else taken.set(path, { kind: "other" });
  }
  return taken;
}

async function nearestExisting(root: string, dir: string): Promise<string> {
  while (dir !== root && !(await Deno.lstat(dir).catch(() => undefined))) dir = dirname(dir);
  return dir;
}

/**
 * Puts back what `snapshot()` saw, never through a path that became a symbolic link, and removes
 * the folders git made; answers the paths it could not put back.
 */
async function restore(root: string, taken: Snapshot): Promise<string[]> {
  const failed: string[] = [];
  for (const [path, was] of taken) {
    const full = join(root, path);
    try {
      if (was.kind === "other" || await firstLink(root, path) !== undefined) continue;
      if (was.kind === "absent") {
        await Deno.remove(full).catch(() => {});
        if (await Deno.lstat(full).catch(() => undefined)) throw new Error("still there");
        await removeMadeFolders(dirname(full), was.existing);
        continue;
      }
      await Deno.writeFile(full, was.bytes, { mode: was.mode });
      await Deno.chmod(full, was.mode);
    } catch {
      failed.push(path);
    }
  }
  return failed;
}

/** Removes the folders from `dir` up to `existing` (not included) while they are empty. */
async function removeMadeFolders(dir: string, existing: string): Promise<void> {
  for (; dir !== existing && dir.startsWith(existing); dir = dirname(dir)) {
    if (!(await Deno.remove(dir).then(() => true, () => false))) return;
  }
}
