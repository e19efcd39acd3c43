/**
 * The macOS `sandbox-exec` invocation for one command (reference/sandbox.md §4.1).
 *
 * The profile starts closed, allows process execution, full-disk reads and writes only under the
 * writable roots minus their protected names. Paths never appear in the profile text: they are
 * passed as `-D` parameters, so no path needs quoting. No network rule is emitted when network is
 * off, which denies every socket connect and bind. Callers pass canonical paths (`/private/var`,
 * not `/var`).
 */

/** The program, by absolute path so a workspace file named `sandbox-exec` is never run. */
export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** What a command may do under seatbelt; the same shape as the bwrap policy. */
export interface SeatbeltPolicy {
  mode: "read-only" | "workspace-write";
  /** Canonical writable roots; `/private/tmp` and `$TMPDIR` are added by the caller if wanted. */
  writableRoots: string[];
  /** Names under each writable root that stay read-only. */
  protectedNames: readonly string[];
  networkAccess: boolean;
  /** Existing paths commands may neither read nor write (permission rules' `Read` denies). */
  masked?: ReadonlyArray<{ path: string; folder: boolean }>;
}

/** A generated profile and the `-D NAME=value` parameters it refers to. */
export interface SeatbeltProfile {
  profile: string;
  params: Record<string, string>;
}

const BASE = `(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow file-read*)
(allow user-preference-read)
(allow sysctl-read
  (sysctl-name-prefix "hw.")
  (sysctl-name "kern.osrelease")
  (sysctl-name "kern.ostype")
  (sysctl-name "kern.osversion")
  (sysctl-name "kern.version")
  (sysctl-name "kern.argmax")
  (sysctl-name "kern.hostname")
  (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.usrstack64")
  (sysctl-name "sysctl.proc_cputype"))
(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))
(allow file-write-data (literal "/dev/null"))`;

/** Builds the profile and its parameters for `policy`. */
export function seatbeltProfile(policy: SeatbeltPolicy): SeatbeltProfile {
  const params: Record<string, string> = {};
  const rules: string[] = [BASE];
  const roots = policy.mode === "workspace-write" ? policy.writableRoots : [];
  const clauses = roots.map((root, i) => {
    const rootParam = `WRITABLE_ROOT_${i}`;
    params[rootParam] = root;
    const excluded = policy.protectedNames.map((name, j) => {
      const param = `${rootParam}_EXCLUDED_${j}`;
      params[param] = `${root.replace(/\/+$/, "")}/${name}`;
      return `(require-not (literal (param "${param}"))) (require-not (subpath (param "${param}")))`;
    });
    return excluded.length === 0
      ? `(subpath (param "${rootParam}"))`
      : `(require-all (subpath (param "${rootParam}")) ${excluded.join(" ")})`;
  });
  if (clauses.length > 0) rules.push(`(allow file-write*\n  ${clauses.join("\n  ")})`);
  if (policy.networkAccess) rules.push("(allow network-outbound)\n(allow network-inbound)");
  // Last, as the last matching rule decides.
  for (const [i, { path, folder }] of (policy.masked ?? []).entries()) {
    params[`MASKED_${i}`] = path;
    rules.push(
      `(deny file-read* file-write* (${folder ? "subpath" : "literal"} (param "MASKED_${i}")))`,
    );
  }
  return { profile: `${rules.join("\n")}\n`, params };
}

/** The argv after `SANDBOX_EXEC` that runs `command` under `policy`. */
export function seatbeltArgs(policy: SeatbeltPolicy, command: string[]): string[] {
  const { profile, params } = seatbeltProfile(policy);
  const defines = Object.entries(params).map(([name, value]) => `-D${name}=${value}`);
  return ["-p", profile, ...defines, "--", ...command];
}
