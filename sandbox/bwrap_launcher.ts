/**
 * The command lines of bubblewrap sandboxes (`command_sandbox.ts` opens them): the bwrap argv of
 * one command with its protected paths covered, the seccomp filter file, and the session folder
 * they and the run records live in.
 */
import { join } from "node:path";
import { bwrapArgs, type SandboxPolicy } from "./bwrap_args.ts";
import type { PlaceholderGuard } from "./placeholders.ts";
import type { ProbeResult } from "./probe.ts";
import { launcherArgs, RECORD_FD } from "./run_record.ts";
import { hostSeccompArch, seccompFilter } from "./seccomp_bpf.ts";

/** Writes the seccomp filter into `dir`; its path, or undefined when this host has none. */
export async function writeSeccompFilter(dir: string): Promise<string | undefined> {
  const arch = hostSeccompArch();
  if (!arch) return undefined;
  const filterPath = join(dir, "seccomp.bpf");
  await Deno.writeFile(filterPath, seccompFilter(arch), { createNew: true });
  // Readable by all: the filter is no secret, and a command may run as another user.
  await Deno.chmod(filterPath, 0o644);
  return filterPath;
}

/** What `bwrapLauncher()` builds its command lines from. */
export interface BwrapLauncherOptions {
  policy: SandboxPolicy;
  probe: Extract<ProbeResult, { ok: true }>;
  /** Folders re-bound read-only over the private `/tmp` (canonical). */
  readable: string[];
  guard: PlaceholderGuard;
  /** The session folder: the filter and the run records. */
  dir: string;
  filterPath: string | undefined;
}

/** How a sandbox is launched: its command as pid 1 (a prepared one), placeholders watched. */
export interface LaunchOptions {
  asPid1?: boolean;
  watch?: boolean;
}

/** Builds the command lines that run a command in a new bubblewrap sandbox. */
export interface BwrapLauncher {
  /** The argv (for `/bin/sh`) that runs `command` in `cwd` in a new sandbox. */
  argv(command: string[], cwd: string, opts?: LaunchOptions): Promise<string[]>;
  /** True when a command in `cwd` needs a bind a prepared sandbox does not have. */
  needsOwnBinds(cwd: string): boolean;
}

export function bwrapLauncher(opts: BwrapLauncherOptions): BwrapLauncher {
  const { policy, probe, guard, filterPath } = opts;
  const underTmp = policy.privateTmp ? opts.readable.filter((path) => isUnder(path, "/tmp")) : [];
  const roots = policy.mode === "workspace-write" ? policy.writableRoots : [];
  // The session folder holds the filter and the run records: read-only even under a root.
  const ownBinds = roots.some((root) => isUnder(opts.dir, root)) ? [opts.dir] : [];
  // A cwd under the private /tmp and outside every writable root is bound read-only too.
  const readOnlyBinds = (cwd: string) =>
    policy.privateTmp && isUnder(cwd, "/tmp") &&
      !policy.writableRoots.some((root) => isUnder(cwd, root))
      ? [...underTmp, cwd]
      : underTmp;
  return {
    async argv(command, cwd, opts = {}) {
      const cover = await guard.cover({ watch: opts.watch });
      const argv = bwrapArgs(policy, {
        command,
        cwd,
        seccompFd: filterPath ? 3 : undefined,
        existingProtectedPaths: [...cover.existing, ...cover.placeholders, ...ownBinds],
        infoFd: cover.record ? RECORD_FD : undefined,
        disableUserns: probe.supportsDisableUserns,
        readOnlyBinds: readOnlyBinds(cwd),
        asPid1: opts.asPid1,
      });
      return launcherArgs({
        bwrap: probe.bwrap,
        bwrapArgs: argv,
        filterPath,
        record: cover.record,
      });
    },
    needsOwnBinds: (cwd) => readOnlyBinds(cwd).length !== underTmp.length,
  };
}

/**
 * A new folder for the session's filter and run records, by its real path (run records are
 * compared with what `/proc` shows). Others may create entries in it but not list or remove them:
 * a command that runs as another user claims its run record there.
 */
export async function sessionDir(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-sandbox-" }));
  await Deno.chmod(dir, 0o1733);
  return dir;
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}
