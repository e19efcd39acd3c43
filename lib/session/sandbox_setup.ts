/**
 * The session's command sandbox and approval hook, from the merged config: which sandbox,
 * which writable roots, which environment, and how approval questions are asked.
 */
import { join, resolve } from "node:path";
import type { ConfigValues } from "../config/schema.ts";
import { makeHomeDir } from "../config/home.ts";
import { UserError } from "../errors.ts";
import { approvalHook, type ApprovalStep, type Approver } from "../approval/hook.ts";
import { onFailureRerun } from "../approval/on_failure.ts";
import { capabilityById } from "../tools/registry.ts";
import {
  type CommandSandbox,
  openCommandSandbox,
  type SandboxMode,
  type SandboxStatus,
} from "../../sandbox/command_sandbox.ts";
import { commandEnvironment } from "../../sandbox/env_policy.ts";
import { DEFAULT_PROTECTED_NAMES } from "../../sandbox/bwrap_args.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { fileSystemFor } from "../../sandbox/fs_helper_client.ts";
import { lazyFileSystem } from "../../sandbox/lazy_file_system.ts";
import { cleanStaleSessions, SessionScratch } from "../../sandbox/scratch_space.ts";
import { journaledFileSystem } from "../../sandbox/write_journal.ts";
import { type OpenRestoreWriter, restoreWriterOpener } from "./_restore_writer.ts";

/** Everything a mode needs to run commands under the configured sandbox and approvals. */
export interface SessionSandbox extends AsyncDisposable {
  sandbox: CommandSandbox;
  /**
   * File access for the file tools: a sandboxed helper process, started on first use, whose
   * atomic writes are journaled so that a crash leaves no temporary file behind for long.
   */
  fs: FileSystem;
  /** The session's own files (job output, terminal configuration), under `<home>/run`. */
  scratch: SessionScratch;
  /** Opens what writes a restore's files (`/undo`, `/rewind`): a helper confined to the workspace. */
  restoreWriter: OpenRestoreWriter;
  /** Environment for spawned commands, from `[shell_environment_policy]`. */
  env: Record<string, string>;
  networkAllowed: boolean;
  /** The approval step of every tool call; its third argument is the turn's abort signal. */
  beforeToolCall: ApprovalStep;
  /** The banner line: `sandbox: ...`. */
  banner: string;
  /** Lines to print as `warning:` before the run. */
  warnings: string[];
}

/** Options of `openSessionSandbox()`. */
export interface SessionSandboxOptions {
  cwd: string;
  /** The interpreter home; the session's scratch space lives in its `run` folder. */
  home: string;
  env: Record<string, string>;
  /** Asks the user; absent when no one can answer. */
  ask?: Approver;
  onDenied?: (message: string, callId?: string) => void;
  /**
   * What the front end calls the setting that chose danger-full-access
   * (`SessionConfig.labels.sandbox`): its warning then names it instead of `sandbox_mode`.
   */
  fullAccessLabel?: string;
  /** Refuse to open when commands cannot be sandboxed and no one may let them run without. */
  requireSandbox?: boolean;
}

/** Probes the sandbox once and builds the session's sandbox, command env and approval hook. */
export async function openSessionSandbox(
  values: ConfigValues,
  opts: SessionSandboxOptions,
): Promise<SessionSandbox> {
  const mode = values.sandbox_mode;
  const policy = values.approval_policy;
  const networkAllowed = networkAllowedBy(values);
  const roots = writableRootsOf(values, opts.cwd);
  const scratchRoot = join(opts.home, "run");
  const leftovers = await prepareScratchRoot(scratchRoot);
  const sandbox = await openCommandSandbox({
    // The bubblewrap program to use instead of the system's (a test makes it missing this way).
    ...(opts.env.OPENINTERPRETER_BWRAP ? { bwrap: opts.env.OPENINTERPRETER_BWRAP } : {}),
    mode,
    writableRoots: roots,
    networkAccess: networkAllowed,
    readablePaths: [scratchRoot],
    retryUnsandboxed: policy === "on-failure"
      ? onFailureRerun({ ask: opts.ask, onDenied: opts.onDenied })
      : undefined,
  });
  const status = sandbox.status;
  const canAsk = opts.ask !== undefined && policy !== "never";
  if (opts.requireSandbox && !confined(status) && !canAsk) {
    await sandbox.close();
    throw unconfinedRefusal(status, policy);
  }
  const helper = fileToolHelper(mode, mode === "workspace-write" ? roots : [], status);
  const scratch = new SessionScratch(scratchRoot);
  const env = commandEnvironment(values.shell_environment_policy, opts.env);
  return {
    sandbox,
    fs: journaledFileSystem(helper, () => scratch.journalDir()),
    scratch,
    restoreWriter: restoreWriterOpener({
      mode,
      bwrap: status.kind === "bwrap" && status.enforced,
      fullAccessLabel: opts.fullAccessLabel,
      journalDir: () => scratch.journalDir(),
    }),
    async [Symbol.asyncDispose]() {
      await helper[Symbol.asyncDispose]();
      await scratch[Symbol.asyncDispose]();
      await sandbox.close();
    },
    env,
    networkAllowed,
    beforeToolCall: approvalHook({
      policy,
      sandbox: { mode, enforced: status.enforced, problem: status.problem },
      env,
      mutates: (id) => capabilityById(id)?.mutates ?? true,
      ask: opts.ask,
      onDenied: opts.onDenied,
    }),
    banner: `sandbox: ${status.description}\napproval: ${policy}`,
    warnings: sandboxWarnings({
      status,
      policy,
      canAsk,
      leftovers,
      fullAccessLabel: opts.fullAccessLabel,
    }),
  };
}

/** True when the sandbox mode lets commands reach the network. */
function networkAllowedBy(values: ConfigValues): boolean {
  const mode = values.sandbox_mode;
  return mode === "danger-full-access" ||
    (mode === "workspace-write" && values.sandbox_workspace_write.network_access);
}

/** The cwd, then `sandbox_workspace_write.writable_roots` resolved against it. */
function writableRootsOf(values: ConfigValues, cwd: string): string[] {
  return [cwd, ...values.sandbox_workspace_write.writable_roots.map((root) => resolve(cwd, root))];
}

/**
 * Removes what killed sessions left (their scratch folders, maybe a temporary file in the
 * workspace; one listing of the folder finds them) and makes the scratch root now, so that
 * sandboxes can bind it. Returns the temporary files removed.
 */
async function prepareScratchRoot(scratchRoot: string): Promise<string[]> {
  const leftovers = await cleanStaleSessions(scratchRoot);
  await makeHomeDir(scratchRoot);
  return leftovers;
}

/** The file tools' helper process, under the same confinement as commands, started on first use. */
function fileToolHelper(
  mode: SandboxMode,
  writableRoots: string[],
  status: SandboxStatus,
): FileSystem & AsyncDisposable {
  return lazyFileSystem(async () =>
    (await fileSystemFor(
      mode === "danger-full-access" ? undefined : {
        mode,
        writableRoots,
        protectedNames: [...DEFAULT_PROTECTED_NAMES],
        networkAccess: false,
        privateTmp: false,
      },
      { probeOk: status.kind === "bwrap" && status.enforced },
    )).fs
  );
}

/** Whether commands run confined, or need no confinement (danger-full-access). */
function confined(status: SandboxStatus): boolean {
  return status.mode === "danger-full-access" || status.enforced;
}

/** Why the sandbox cannot be enforced, for a sentence: `bubblewrap is not installed`. */
function causeOf(status: SandboxStatus): string {
  const message = status.problem?.message ?? "the command sandbox is unavailable";
  return message.replace(/^Command sandbox unavailable: /, "");
}

/** The error of a session that could run no command: no sandbox, and no one to approve. */
function unconfinedRefusal(status: SandboxStatus, policy: string): UserError {
  const who = policy === "never" ? "approval_policy is never" : "no one is here to approve them";
  const fix = status.problem?.hint ?? "Restart with --sandbox danger-full-access";
  return new UserError(
    `Cannot run commands: the command sandbox is unavailable because ${causeOf(status)}, and ` +
      `${who}, so every command that is not known to be read-only would be refused`,
    { hint: fix.replace(/; or approve each command to run it unsandboxed$/, ""), exitCode: 2 },
  );
}

/** The `warning:` lines of a session: leftovers removed, and what the sandbox cannot enforce. */
function sandboxWarnings(facts: {
  status: SandboxStatus;
  policy: string;
  /** Someone can approve a command to run without the sandbox. */
  canAsk: boolean;
  leftovers: string[];
  fullAccessLabel?: string;
}): string[] {
  const { status, leftovers, fullAccessLabel } = facts;
  const warnings: string[] = [];
  if (leftovers.length) {
    warnings.push(
      `Removed ${leftovers.length} temporary file(s) an interrupted session left: ` +
        leftovers.map((p) => `"${p}"`).join(", "),
    );
  }
  if (status.problem && !confined(status)) {
    const then = facts.canAsk
      ? "each command that is not known to be read-only asks for your approval, then runs " +
        "unsandboxed"
      : "commands that are not known to be read-only will not run";
    warnings.push(
      `The command sandbox is unavailable because ${causeOf(status)}, so ${then}.\n` +
        `hint: ${status.problem.hint}`,
    );
  } else if (status.problem) {
    warnings.push(`${status.problem.message}\nhint: ${status.problem.hint}`);
  }
  if (status.mode !== "danger-full-access" && !(status.kind === "bwrap" && status.enforced)) {
    warnings.push("File tools run without an OS sandbox: symlink escapes are not blocked");
  }
  if (status.mode === "danger-full-access") {
    const unasked = facts.policy === "never" ? " and without asking for approval" : "";
    warnings.push(
      fullAccessLabel
        ? `${fullAccessLabel}: commands run without a sandbox${unasked}`
        : "sandbox_mode is danger-full-access: commands run without a sandbox",
    );
  }
  return warnings;
}
