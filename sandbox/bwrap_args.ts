/**
 * The bubblewrap argv for one sandboxed command (reference/sandbox.md §2.1, §2.5).
 *
 * Mount order matters: the read-only root first, then the private `/tmp`, then the writable
 * binds, then the protected paths re-bound read-only on top of them (for a protected name that
 * does not exist, the session's placeholder, see `placeholders.ts`). Every bound path exists when
 * the caller builds the argv, so bwrap never creates files on the host itself.
 */
import { join } from "node:path";
import { isPlaceholder } from "./placeholders.ts";

export { DEFAULT_PROTECTED_NAMES, SETUP_PROTECTED_NAMES } from "./placeholders.ts";

/** What a sandboxed command may do. */
export interface SandboxPolicy {
  mode: "read-only" | "workspace-write";
  /** Absolute, canonical paths; for workspace-write this already includes the cwd. */
  writableRoots: string[];
  /** Names under each writable root that stay read-only, usually `DEFAULT_PROTECTED_NAMES`. */
  protectedNames: string[];
  networkAccess: boolean;
  /** Mount an empty tmpfs on `/tmp` that disappears when the command ends. */
  privateTmp: boolean;
  /**
   * Existing files and folders (real paths) commands must not read (permission rules' `Read`
   * denies): an empty read-only folder or `/dev/null` is mounted over each.
   */
  masked?: ReadonlyArray<{ path: string; folder: boolean }>;
}

/** Options of `bwrapArgs()`. */
export interface BwrapArgsOptions {
  /** The program and its arguments, run after `--`. */
  command: string[];
  /** Absolute working directory inside the sandbox. */
  cwd: string;
  /** A file descriptor that carries a seccomp BPF program (see `seccomp_bpf.ts`). */
  seccompFd?: number;
  /**
   * Protected paths that exist under the writable roots, from `protectedPathsUnder()`, and the
   * placeholders `PlaceholderGuard.cover()` made for those that do not.
   */
  existingProtectedPaths?: string[];
  /** A descriptor bwrap writes the sandbox's pid to (`--info-fd`, see `run_record.ts`). */
  infoFd?: number;
  /** False for bubblewrap older than 0.8.0, which lacks `--disable-userns`. */
  disableUserns?: boolean;
  /** Paths re-bound read-only after the private `/tmp`, e.g. a read-only cwd under `/tmp`. */
  readOnlyBinds?: string[];
  /** Run the command as the sandbox's pid 1, without bwrap's own init (`warm_sandbox.ts`). */
  asPid1?: boolean;
}

/** Builds the argv (without the `bwrap` program itself) that runs `opts.command` under `policy`. */
export function bwrapArgs(policy: SandboxPolicy, opts: BwrapArgsOptions): string[] {
  const args = ["--new-session", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev"];
  args.push("--unshare-pid", ...(opts.asPid1 ? ["--as-pid-1"] : []), "--proc", "/proc");
  if (policy.privateTmp) args.push("--tmpfs", "/tmp");
  for (const path of opts.readOnlyBinds ?? []) args.push("--ro-bind", path, path);
  const roots = policy.mode === "workspace-write" ? policy.writableRoots : [];
  for (const root of roots) args.push("--bind", root, root);
  for (const path of opts.existingProtectedPaths ?? []) {
    if (roots.some((root) => isInside(path, root))) args.push("--ro-bind", path, path);
  }
  for (const { path, folder } of policy.masked ?? []) {
    args.push(
      ...(folder ? ["--tmpfs", path, "--remount-ro", path] : ["--ro-bind", "/dev/null", path]),
    );
  }
  args.push("--unshare-user");
  if (opts.disableUserns ?? true) args.push("--disable-userns");
  if (!policy.networkAccess) args.push("--unshare-net");
  args.push("--chdir", opts.cwd);
  if (opts.seccompFd !== undefined) args.push("--seccomp", String(opts.seccompFd));
  if (opts.infoFd !== undefined) args.push("--info-fd", String(opts.infoFd));
  return [...args, "--", ...opts.command];
}

/**
 * Finds which of `names` exist directly under each root, as real paths without duplicates.
 *
 * A symlinked entry (a `.git` pointing elsewhere) resolves to its target: bwrap 0.8 follows
 * symlinks at a mount destination and cannot cover the link itself, so the target is protected
 * and the link, whose parent is writable, can still be replaced. Dangling links are skipped, and
 * so are placeholders (`isPlaceholder()`): they are not the user's, and may go at any time.
 */
export async function protectedPathsUnder(
  roots: string[],
  names: readonly string[],
): Promise<string[]> {
  const found = new Set<string>();
  for (const root of roots) {
    for (const name of names) {
      try {
        const path = join(root, name);
        if (await isPlaceholder(path)) continue;
        found.add(await Deno.realPath(path));
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
  }
  return [...found];
}

function isInside(path: string, root: string): boolean {
  const base = root.endsWith("/") ? root : `${root}/`;
  return path.startsWith(base);
}
