/**
 * Startup detection of bubblewrap (reference/sandbox.md §2.8, §6): is it installed, and can it
 * build the namespaces the real recipe uses? A failure names the cause and the fix; the caller
 * then refuses to run commands unsandboxed instead of downgrading silently.
 */

import { bubblewrapInstallCommand } from "./install_hint.ts";

/** Why the sandbox cannot be used. */
export type ProbeFailureKind =
  | "missing"
  | "userns_disabled"
  | "userns_limit_zero"
  | "no_privilege"
  | "unknown";

/** A classified probe failure: the cause in `message`, the remedy in `hint`. */
export interface ProbeFailure {
  kind: ProbeFailureKind;
  message: string;
  hint: string;
}

/** The outcome of `probeBubblewrap()`. */
export type ProbeResult =
  | { ok: true; bwrap: string; version: string; supportsDisableUserns: boolean }
  | { ok: false; bwrap: string; failure: ProbeFailure; stderr: string };

/** Options of `probeBubblewrap()`. */
export interface ProbeOptions {
  /** The bwrap program; default `/usr/bin/bwrap` when it exists, else `bwrap` from PATH. */
  bwrap?: string;
}

const UNAVAILABLE = "Command sandbox unavailable";
const FALLBACK = "or restart with --sandbox danger-full-access to run commands unsandboxed";

interface Rule {
  pattern: RegExp;
  kind: ProbeFailureKind;
  cause: string;
  hint: string;
}

const RULES: Rule[] = [
  {
    pattern: /No permissions to create (a )?new namespace/,
    kind: "userns_disabled",
    cause: "the kernel does not allow unprivileged user namespaces",
    hint: "Enable them with `sysctl -w kernel.unprivileged_userns_clone=1`; in a container, " +
      `allow the unshare and clone syscalls in its seccomp profile, ${FALLBACK}`,
  },
  {
    pattern: /setting up uid map: Permission denied/,
    kind: "userns_disabled",
    cause: "AppArmor restricts unprivileged user namespaces",
    hint: "Allow bwrap in an AppArmor profile, or set " +
      `\`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\`, ${FALLBACK}`,
  },
  {
    pattern: /max_\*?_?namespaces exceeded|\(ENOSPC\)/,
    kind: "userns_limit_zero",
    cause: "the user namespace limit is reached (user.max_user_namespaces is 0 or too low, " +
      "or namespaces are nested too deep)",
    hint: `Raise it with \`sysctl -w user.max_user_namespaces=15000\`, ${FALLBACK}`,
  },
  {
    pattern: /Failed RTM_NEW(ADDR|LINK)/,
    kind: "no_privilege",
    cause: "the process may not configure a network namespace (no CAP_NET_ADMIN)",
    hint: `Run the container with CAP_NET_ADMIN or allow network access, ${FALLBACK}`,
  },
  {
    pattern: /Can't mount proc/,
    kind: "no_privilege",
    cause: "/proc cannot be mounted in the sandbox (a container masks it)",
    hint:
      `Run the container with an unmasked /proc (Docker: --security-opt systempaths=unconfined), ${FALLBACK}`,
  },
  {
    pattern: /(Creating new namespace|unshare) failed: Operation not permitted/,
    kind: "no_privilege",
    cause: "the process lacks the privilege to create namespaces (an unprivileged container?)",
    hint: "Allow user namespaces in the container (Docker: --security-opt seccomp=unconfined " +
      `or a profile that permits unshare), ${FALLBACK}`,
  },
];

/**
 * Classifies a failed probe from bwrap's stderr and exit code; `exitCode` null means the
 * program could not be started at all (not found). `install` is the command that installs
 * bubblewrap here, when known.
 */
export function classifyProbeFailure(
  stderr: string,
  exitCode: number | null,
  install?: string,
): ProbeFailure {
  if (exitCode === null) {
    return {
      kind: "missing",
      message: `${UNAVAILABLE}: bubblewrap is not installed`,
      hint: install
        ? `Install it with \`${install}\`, ${FALLBACK}`
        : `Install it (Debian/Ubuntu: \`apt-get install bubblewrap\`; Fedora: ` +
          `\`dnf install bubblewrap\`), ${FALLBACK}`,
    };
  }
  const rule = RULES.find((r) => r.pattern.test(stderr));
  if (rule) return { kind: rule.kind, message: `${UNAVAILABLE}: ${rule.cause}`, hint: rule.hint };
  const detail = stderr.trim().split("\n")[0] || `exit code ${exitCode}`;
  return {
    kind: "unknown",
    message: `${UNAVAILABLE}: the bubblewrap probe failed: ${detail}`,
    hint: `Run the probe by hand to see why (\`bwrap --ro-bind / / --dev /dev --unshare-user ` +
      `--unshare-pid --proc /proc --unshare-net -- /bin/true\`), ${FALLBACK}`,
  };
}

/** Parses `bubblewrap 0.8.0` into [0, 8, 0], or undefined when the text has no version. */
export function parseBwrapVersion(text: string): [number, number, number] | undefined {
  const m = text.match(/(\d+)\.(\d+)(?:\.(\d+))?/);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** The probe argv, shaped like the real recipe; `--disable-userns` needs bubblewrap 0.8. */
export function probeArgs(supportsDisableUserns: boolean): string[] {
  const userns = supportsDisableUserns
    ? ["--unshare-user", "--disable-userns"]
    : ["--unshare-user"];
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    ...userns,
    "--unshare-pid",
    "--proc",
    "/proc",
    "--unshare-net",
    "--",
    "/bin/true",
  ];
}

/** Runs `bwrap --version` and then a probe shaped like the real recipe, and classifies failure. */
export async function probeBubblewrap(opts: ProbeOptions = {}): Promise<ProbeResult> {
  const bwrap = opts.bwrap ?? await defaultBwrap();
  // One probe per program and process: the session's sandbox and the one its own git commands
  // run in are opened together at start-up.
  let probe = probes.get(bwrap);
  if (!probe) probes.set(bwrap, probe = probeOnce(bwrap));
  return await probe;
}

const probes = new Map<string, Promise<ProbeResult>>();

async function probeOnce(bwrap: string): Promise<ProbeResult> {
  const version = await run(bwrap, ["--version"]);
  if (version.code !== 0) return await failed(bwrap, version);
  const parsed = parseBwrapVersion(version.stdout);
  const supportsDisableUserns = parsed !== undefined && (parsed[0] > 0 || parsed[1] >= 8);
  const probe = await run(bwrap, probeArgs(supportsDisableUserns));
  if (probe.code !== 0) return await failed(bwrap, probe);
  return { ok: true, bwrap, version: version.stdout.trim(), supportsDisableUserns };
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function failed(bwrap: string, result: RunResult): Promise<ProbeResult> {
  const install = result.code === null ? await bubblewrapInstallCommand() : undefined;
  return {
    ok: false,
    bwrap,
    failure: classifyProbeFailure(result.stderr, result.code, install),
    stderr: result.stderr,
  };
}

async function run(program: string, args: string[]): Promise<RunResult> {
  try {
    const out = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" })
      .output();
    const text = new TextDecoder();
    return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { code: null, stdout: "", stderr: `${program}: not found` };
    }
    throw error;
  }
}

async function defaultBwrap(): Promise<string> {
  try {
    return (await Deno.stat("/usr/bin/bwrap")).isFile ? "/usr/bin/bwrap" : "bwrap";
  } catch {
    return "bwrap";
  }
}
