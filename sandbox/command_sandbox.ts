/**
 * The OS sandbox for model-run commands: turns a command into the process to spawn.
 *
 * Linux wraps it in bubblewrap with a seccomp filter, macOS in `sandbox-exec`, and
 * danger-full-access runs it as is. When a sandboxed mode cannot be had (bwrap missing or
 * broken, Windows), `wrap()` refuses every command that was not explicitly escalated, with the
 * reason and the fix: commands never run unsandboxed silently.
 *
 * Under bubblewrap, protected names that do not exist yet are covered too: the session makes
 * placeholders for them before a command starts and removes them once no command of the session
 * can still run (`placeholders.ts`, `run_record.ts`). `spawn()` starts a command in a sandbox
 * prepared while the previous one was answered (`warm_sandbox.ts`), one sandbox per command.
 */
import { join } from "node:path";
import { DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "./bwrap_args.ts";
import { bwrapLauncher, sessionDir, writeSeccompFilter } from "./bwrap_launcher.ts";
import { coveredWhenMissing, PlaceholderGuard, sweepPlaceholders } from "./placeholders.ts";
import { probeBubblewrap, type ProbeResult } from "./probe.ts";
import { SANDBOX_EXEC, seatbeltArgs } from "./seatbelt_profile.ts";
import type { CommandRequest, SandboxMode, SpawnSpec } from "./types.ts";
import { type PreparedProcess, WarmSandboxes } from "./warm_sandbox.ts";
import { probeSignalReset, type SignalReset, withSignalReset } from "./_default_signals.ts";

export type { CommandRequest, SandboxMode, SpawnSpec } from "./types.ts";

/**
 * The command that runs `spec` in `cwd` with exactly its environment (nothing inherited), stdin
 * closed and both outputs piped.
 */
export function specCommand(spec: SpawnSpec, cwd: string): Deno.Command {
  return new Deno.Command(spec.cmd, {
    args: spec.args,
    cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/**
 * Sandboxes kept prepared ahead of the session's commands. Preparing one takes longer than a
 * model round trip with a short command in it, so with one alone a quick session's every
 * command would wait for its sandbox.
 */
const PREPARED_AHEAD = 3;

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
   * Starts `req` at once in a sandbox prepared for it ahead of time (stdin closed, stdout and
   * stderr piped, its own process group); undefined when there is none, and the caller spawns
   * what `wrap()` returns. Never runs an escalated request.
   */
  spawn?(req: CommandRequest): Promise<PreparedProcess | undefined>;
  /** Resolves true once a sandbox is prepared for the next `spawn()`, false when none will be. */
  prepared?(): Promise<boolean>;
  /**
   * Asked after a sandboxed command failed in a way the sandbox may have caused (on-failure
   * approval): true reruns it unsandboxed; a string, added to the output, says why it was not.
   * `call` names the tool call the command belongs to; when its `signal` fires while the user is
   * asked, the question is withdrawn and the promise rejects with an `AbortError`.
   */
  retryUnsandboxed?(
    command: string,
    output: string,
    call?: { callId?: string; tool?: string; signal?: AbortSignal },
  ): Promise<boolean | string>;
  /**
   * Ends the sandbox prepared for the next command, then removes the placeholders of missing
   * protected names if no sandboxed command can still run; true when none are left. The sandbox
   * also does this by itself soon after (a prepared sandbox ends after `IDLE_MS` unused).
   */
  reclaim?(): Promise<boolean>;
  /** Waits briefly for the session's sandboxes to end, then removes placeholders and temp files. */
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
  /** Existing paths hidden from commands (bubblewrap, sandbox-exec): `SandboxPolicy.masked`. */
  masked?: SandboxPolicy["masked"];
  /** The OS to sandbox for; default the running one. */
  os?: typeof Deno.build.os;
  /** The bwrap program to probe and use. */
  bwrap?: string;
  /** See `CommandSandbox.retryUnsandboxed`. */
  retryUnsandboxed?: (
    command: string,
    output: string,
    call?: { callId?: string; tool?: string; signal?: AbortSignal },
  ) => Promise<boolean | string>;
  /** Put before the argv of sandboxes prepared ahead (tests run them as another user). */
  launcherPrefix?: string[];
  /**
   * The agent's own program, which commands can run even when it lies under `/tmp` (a checkout
   * there): the private `/tmp` gets it read-only, as the read-only root shows it anywhere else.
   * Default `Deno.execPath()`.
   */
  runtimePath?: string;
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
    ...(opts.masked?.length ? { masked: opts.masked } : {}),
  };
  const extra = { retryUnsandboxed: opts.retryUnsandboxed };
  if (os === "linux") {
    const [probe, reset] = await Promise.all([
      probeBubblewrap(opts.bwrap ? { bwrap: opts.bwrap } : {}),
      probeSignalReset(),
    ]);
    const runtime = opts.runtimePath ?? Deno.execPath();
    const readable = await canonical([...(opts.readablePaths ?? []), runtime]);
    const launch = { readable, reset, launcherPrefix: opts.launcherPrefix };
    return { ...(await bwrapSandbox(policy, probe, launch)), ...extra };
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
    ? `writes only to ${policy.writableRoots.join(", ")}${protectedNote(policy.protectedNames)}`
    : "no writes";
  const tmp = policy.privateTmp ? "; private /tmp" : "";
  return `${policy.mode}: ${writes}${tmp}; network ${policy.networkAccess ? "on" : "off"}`;
}

/** "; in each, .git and .agents are read-only and cannot be created, and …", or "". */
function protectedNote(all: readonly string[]): string {
  const names = all.filter(coveredWhenMissing);
  const others = all.filter((name) => !coveredWhenMissing(name));
  const listed = names.length > 1
    ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`
    : names.join("");
  const ours = names.length === 0
    ? ""
    : `${listed} ${names.length > 1 ? "are" : "is"} read-only and cannot be created`;
  const shown = others.length > 3
    ? `${others.slice(0, 2).join(", ")} and ${others.length - 2} more`
    : others.join(", ");
  const theirs = others.length === 0 ? "" : `other agents' setup files (${shown}) are read-only`;
  const both = [ours, theirs].filter(Boolean).join(", and ");
  return both ? `; in each, ${both}` : "";
}

/** How bubblewrap sandboxes are launched besides the policy. */
interface LaunchSetup {
  /** Folders re-bound read-only over the private `/tmp` (canonical). */
  readable: string[];
  /** Put before the launcher so that commands start with default signal dispositions. */
  reset: SignalReset;
  /** See `OpenSandboxOptions.launcherPrefix`. */
  launcherPrefix?: string[];
}

async function bwrapSandbox(
  policy: SandboxPolicy,
  probe: ProbeResult,
  setup: LaunchSetup,
): Promise<CommandSandbox> {
  if (!probe.ok) {
    return unavailable(policy.mode, {
      message: probe.failure.message,
      hint: `${probe.failure.hint}; or approve each command to run it unsandboxed`,
    });
  }
  const roots = policy.mode === "workspace-write" ? policy.writableRoots : [];
  const dir = await sessionDir();
  const filterPath = await writeSeccompFilter(dir);
  await sweepPlaceholders(roots, policy.protectedNames);
  const guard = new PlaceholderGuard({ roots, names: policy.protectedNames, recordDir: dir });
  const { readable, reset, launcherPrefix } = setup;
  const launcher = bwrapLauncher({ policy, probe, readable, guard, dir, filterPath });
  const warm = new WarmSandboxes({
    // Prepared for no command in particular, so for a cwd that needs no bind of its own.
    prepare: async (runner): Promise<SpawnSpec> => ({
      ...withSignalReset(reset, {
        cmd: "/bin/sh",
        args: await launcher.argv(runner, "/", { asPid1: true, watch: false }),
      }),
      env: probe.bwrap.includes("/") ? {} : { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    }),
    watched: [...roots, ...roots.flatMap((r) => policy.protectedNames.map((n) => join(r, n)))],
    ended: () => guard.watch(),
    launcherPrefix,
    depth: PREPARED_AHEAD,
  });
  return {
    status: bwrapStatus(policy, filterPath),
    async wrap(req) {
      if (req.escalated) return direct(req);
      const args = await launcher.argv(req.argv, req.cwd);
      return {
        ...withSignalReset(reset, { cmd: "/bin/sh", args }),
        env: sandboxEnv(req.env, policy),
      };
    },
    async spawn(req) {
      if (req.escalated || launcher.needsOwnBinds(req.cwd)) return undefined;
      return await warm.take({ argv: req.argv, cwd: req.cwd, env: sandboxEnv(req.env, policy) });
    },
    prepared: () => warm.ready(),
    async reclaim() {
      await warm.retire();
      return await guard.reclaim();
    },
    async close() {
      await warm.close();
      await guard[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

function bwrapStatus(policy: SandboxPolicy, filterPath: string | undefined): SandboxStatus {
  const seccomp = filterPath
    ? "seccomp: no Unix sockets but stream pairs, no io_uring"
    : "no seccomp filter";
  return {
    mode: policy.mode,
    kind: "bwrap",
    enforced: true,
    description: `${describePolicy(policy)} (bubblewrap, ${seccomp})`,
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
  // The agent's own path, as a parent shell left it; bash would not pass it on anyway.
  delete out._;
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
