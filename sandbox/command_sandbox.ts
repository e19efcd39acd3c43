/**
 * The OS sandbox for model-run commands: turns a command into the process to spawn.
 *
 * Linux wraps it in bubblewrap with a seccomp filter, macOS in `sandbox-exec`, and
 * danger-full-access runs it as is. When a sandboxed mode cannot be had (bwrap missing or
 * broken, Windows), `wrap()` refuses every command that was not explicitly escalated, with the
 * reason and the fix: commands never run unsandboxed silently.
 */
import {
  bwrapArgs,
  DEFAULT_PROTECTED_NAMES,
  protectedPathsUnder,
  type SandboxPolicy,
} from "./bwrap_args.ts";
import { probeBubblewrap, type ProbeResult } from "./probe.ts";
import { hostSeccompArch, seccompFilter, shellWithSeccompFd } from "./seccomp_bpf.ts";
import { SANDBOX_EXEC, seatbeltArgs } from "./seatbelt_profile.ts";

/** Values of `sandbox_mode`. */
export type SandboxMode = "read-only" | "workspace-write" | "danger-full-access";

/** A command to run, before sandboxing. */
export interface CommandRequest {
  argv: string[];
  /** Absolute working directory. */
  cwd: string;
  env: Record<string, string>;
  /** Run outside the sandbox; set only after the user approved it. */
  escalated?: boolean;
}

/** The process to spawn (with `clearEnv: true`). */
export interface SpawnSpec {
  cmd: string;
  args: string[];
  env: Record<string, string>;
}

/** What the session's sandbox is, for the banner, the prompt and the approval policy. */
export interface SandboxStatus {
  mode: SandboxMode;
  kind: "bwrap" | "seatbelt" | "none";
  /** True when commands of a sandboxed mode are really confined. */
  enforced: boolean;
  description: string;
  /** Why a sandboxed mode cannot be enforced, and the fix. */
  problem?: { message: string; hint: string };
}

/** The sandbox seam of `ToolContext`. */
export interface CommandSandbox {
  readonly status: SandboxStatus;
  /** The process to spawn for `req`; throws `SandboxRefusal` when it must not run. */
  wrap(req: CommandRequest): SpawnSpec | Promise<SpawnSpec>;
  /**
   * Asked after a sandboxed command failed in a way the sandbox may have caused (on-failure
   * approval): true reruns it unsandboxed; a string, added to the output, says why it was not.
   */
  retryUnsandboxed?(command: string, output: string): Promise<boolean | string>;
  /** Removes the session's temp files. */
  close(): Promise<void>;
}

/** A command the sandbox will not run; `hint` says how to fix it. */
export class SandboxRefusal extends Error {
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.name = "SandboxRefusal";
    this.hint = hint;
  }
}

/** Options of `openCommandSandbox()`. */
export interface OpenSandboxOptions {
  mode: SandboxMode;
  /** Writable roots (the cwd first) for workspace-write; canonicalized here. */
  writableRoots: string[];
  networkAccess: boolean;
  /** Give each command an empty `/tmp`; default true. */
  privateTmp?: boolean;
  /**
   * Folders commands must be able to read even under `/tmp` (the session's scratch folder, which
   * holds background job output): re-bound read-only over the private `/tmp`. They must exist.
   */
  readablePaths?: string[];
  /** Names kept read-only under each writable root; default `DEFAULT_PROTECTED_NAMES`. */
  protectedNames?: readonly string[];
  /** The OS to sandbox for; default the running one. */
  os?: typeof Deno.build.os;
  /** The bwrap program to probe and use. */
  bwrap?: string;
  /** See `CommandSandbox.retryUnsandboxed`. */
  retryUnsandboxed?: (command: string, output: string) => Promise<boolean | string>;
}

/** Probes the platform once and returns the session's command sandbox. */
export async function openCommandSandbox(opts: OpenSandboxOptions): Promise<CommandSandbox> {
  const os = opts.os ?? Deno.build.os;
  if (opts.mode === "danger-full-access") {
    return passthrough({
      mode: opts.mode,
      kind: "none",
      enforced: false,
      description: "danger-full-access (commands run without a sandbox)",
    });
  }
  const roots = await canonical(opts.mode === "workspace-write" ? opts.writableRoots : []);
  const policy: SandboxPolicy = {
    mode: opts.mode,
    writableRoots: roots,
    protectedNames: [...(opts.protectedNames ?? DEFAULT_PROTECTED_NAMES)],
    networkAccess: opts.networkAccess,
    privateTmp: opts.privateTmp ?? true,
  };
  const extra = { retryUnsandboxed: opts.retryUnsandboxed };
  if (os === "linux") {
    const probe = await probeBubblewrap(opts.bwrap ? { bwrap: opts.bwrap } : {});
    const readable = await canonical(opts.readablePaths ?? []);
    return { ...(await bwrapSandbox(policy, probe, readable)), ...extra };
  }
  if (os === "darwin") return { ...seatbeltSandbox(policy), ...extra };
  return unavailable(opts.mode, {
    message: `Command sandbox unavailable: there is no OS sandbox for ${os}`,
    hint: "Approve each command, run inside WSL2, or restart with --sandbox danger-full-access",
  });
}

/** One line describing what a sandboxed command may do. */
export function describePolicy(policy: SandboxPolicy): string {
  const writes = policy.mode === "workspace-write"
    ? `writes only to ${policy.writableRoots.join(", ")} (${
      policy.protectedNames.join(", ")
    } read-only)`
    : "no writes";
  const tmp = policy.privateTmp ? ", private /tmp" : "";
  return `${policy.mode}: ${writes}${tmp}, network ${policy.networkAccess ? "on" : "off"}`;
}

async function bwrapSandbox(
  policy: SandboxPolicy,
  probe: ProbeResult,
  readable: string[],
): Promise<CommandSandbox> {
  if (!probe.ok) {
    return unavailable(policy.mode, {
      message: probe.failure.message,
      hint: `${probe.failure.hint}; or approve each command to run it unsandboxed`,
    });
  }
  const arch = hostSeccompArch();
  const filterPath = arch ? await Deno.makeTempFile({ prefix: "oi-seccomp-" }) : undefined;
  // Readable by all: the filter is no secret, and a command may run as another user.
  if (arch && filterPath) await Deno.writeFile(filterPath, seccompFilter(arch), { mode: 0o644 });
  if (filterPath) await Deno.chmod(filterPath, 0o644);
  const seccomp = filterPath ? "seccomp: no Unix sockets but stream pairs, no io_uring" : "no seccomp filter";
  const status: SandboxStatus = {
    mode: policy.mode,
    kind: "bwrap",
    enforced: true,
    description: `${describePolicy(policy)} (bubblewrap, ${seccomp})`,
  };
  const underTmp = policy.privateTmp ? readable.filter((path) => isUnder(path, "/tmp")) : [];
  const readOnlyBinds = (cwd: string) =>
    policy.privateTmp && isUnder(cwd, "/tmp") &&
      !policy.writableRoots.some((root) => isUnder(cwd, root))
      ? [...underTmp, cwd]
      : underTmp;
  return {
    status,
    async wrap(req) {
      if (req.escalated) return direct(req);
      const existingProtectedPaths = await protectedPathsUnder(
        policy.writableRoots,
        policy.protectedNames,
      );
      const argv = bwrapArgs(policy, {
        command: req.argv,
        cwd: req.cwd,
        seccompFd: filterPath ? 3 : undefined,
        existingProtectedPaths,
        disableUserns: probe.supportsDisableUserns,
        readOnlyBinds: readOnlyBinds(req.cwd),
      });
      const env = sandboxEnv(req.env, policy);
      if (!filterPath) return { cmd: probe.bwrap, args: argv, env };
      return {
        cmd: "/bin/sh",
        args: shellWithSeccompFd(filterPath, argv, { bwrap: probe.bwrap }),
        env,
      };
    },
    async close() {
      if (filterPath) await Deno.remove(filterPath).catch(() => {});
    },
  };
}

function seatbeltSandbox(policy: SandboxPolicy): CommandSandbox {
  const status: SandboxStatus = {
    mode: policy.mode,
    kind: "seatbelt",
    enforced: true,
    description: `${describePolicy({ ...policy, privateTmp: false })} (sandbox-exec)`,
  };
  const roots = policy.mode === "workspace-write" ? [...policy.writableRoots, "/private/tmp"] : [];
  return {
    status,
    wrap(req) {
      if (req.escalated) return direct(req);
      const args = seatbeltArgs({ ...policy, writableRoots: roots }, req.argv);
      return { cmd: SANDBOX_EXEC, args, env: sandboxEnv(req.env, policy) };
    },
    close: () => Promise.resolve(),
  };
}

function passthrough(status: SandboxStatus): CommandSandbox {
  return { status, wrap: direct, close: () => Promise.resolve() };
}

function unavailable(
  mode: SandboxMode,
  problem: { message: string; hint: string },
): CommandSandbox {
  const status: SandboxStatus = {
    mode,
    kind: "none",
    enforced: false,
    description: `${mode} requested, but ${problem.message.replace(/^Command sandbox /, "the ")}`,
    problem,
  };
  return {
    status,
    wrap(req) {
      if (req.escalated) return direct(req);
      throw new SandboxRefusal(
        `Cannot run the command: ${problem.message}; it was not run`,
        problem.hint,
      );
    },
    close: () => Promise.resolve(),
  };
}

function direct(req: CommandRequest): SpawnSpec {
  return { cmd: req.argv[0], args: req.argv.slice(1), env: req.env };
}

function sandboxEnv(env: Record<string, string>, policy: SandboxPolicy): Record<string, string> {
  const out = { ...env };
  if (policy.privateTmp) out.TMPDIR = "/tmp";
  if (!policy.networkAccess) out.OPENINTERPRETER_SANDBOX_NETWORK_DISABLED = "1";
  return out;
}

async function canonical(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const real = await Deno.realPath(path).catch(() => undefined);
    if (real && !out.includes(real)) out.push(real);
  }
  return out;
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}
