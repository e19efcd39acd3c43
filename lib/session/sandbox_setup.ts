/**
 * The session's command sandbox and approval hook, from the merged config: which sandbox,
 * which writable roots, which environment, and how approval questions are asked.
 */
import { join, resolve } from "node:path";
import type { ConfigValues } from "../config/schema.ts";
import { makeHomeDir } from "../config/home.ts";
import { approvalHook, type ApprovalStep, type Approver } from "../approval/hook.ts";
import { onFailureRerun } from "../approval/on_failure.ts";
import { capabilityById } from "../tools/registry.ts";
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { commandEnvironment } from "../../sandbox/env_policy.ts";
import { DEFAULT_PROTECTED_NAMES } from "../../sandbox/bwrap_args.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { fileSystemFor } from "../../sandbox/fs_helper_client.ts";
import { lazyFileSystem } from "../../sandbox/lazy_file_system.ts";
import { cleanStaleSessions, SessionScratch } from "../../sandbox/scratch_space.ts";
import { journaledFileSystem } from "../../sandbox/write_journal.ts";

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
  /** Environment for spawned commands, from `[shell_environment_policy]`. */
  env: Record<string, string>;
  networkAllowed: boolean;
  /** The approval step of every tool call; its third argument is the turn's abort signal. */
  beforeToolCall: ApprovalStep;
  /** The banner line: `sandbox: ...`. */
  banner: string;
  /** Lines to print as `warning:` before the run. */
  warnings: string[];
  /** One paragraph for the system prompt describing the sandbox and approval policy. */
  promptNote: string;
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
  /** `--yolo` was given. */
  yolo?: boolean;
}

/** Probes the sandbox once and builds the session's sandbox, command env and approval hook. */
export async function openSessionSandbox(
  values: ConfigValues,
  opts: SessionSandboxOptions,
): Promise<SessionSandbox> {
  const mode = values.sandbox_mode;
  const policy = values.approval_policy;
  const wsw = values.sandbox_workspace_write;
  const networkAllowed = mode === "danger-full-access" ||
    (mode === "workspace-write" && wsw.network_access);
  const ask = opts.ask;
  const scratchRoot = join(opts.home, "run");
  // Sessions that were killed left their scratch folders and maybe a temporary file in the
  // workspace; one listing of the folder finds them. Made now so sandboxes can bind it.
  const leftovers = await cleanStaleSessions(scratchRoot);
  await makeHomeDir(scratchRoot);
  const sandbox = await openCommandSandbox({
    mode,
    writableRoots: [opts.cwd, ...wsw.writable_roots.map((root) => resolve(opts.cwd, root))],
    networkAccess: networkAllowed,
    readablePaths: [scratchRoot],
    retryUnsandboxed: policy === "on-failure"
      ? onFailureRerun({ ask, onDenied: opts.onDenied })
      : undefined,
  });
  const status = sandbox.status;
  const writableRoots = mode === "workspace-write"
    ? [opts.cwd, ...wsw.writable_roots.map((root) => resolve(opts.cwd, root))]
    : [];
  const helper = lazyFileSystem(async () =>
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
  const scratch = new SessionScratch(scratchRoot);
  const fs = journaledFileSystem(helper, () => scratch.journalDir());
  const env = commandEnvironment(values.shell_environment_policy, opts.env);
  const beforeToolCall = approvalHook({
    policy,
    sandbox: { mode, enforced: status.enforced, problem: status.problem },
    env,
    mutates: (id) => capabilityById(id)?.mutates ?? true,
    ask,
    onDenied: opts.onDenied,
  });
  const warnings: string[] = [];
  if (leftovers.length) {
    warnings.push(
      `Removed ${leftovers.length} temporary file(s) an interrupted session left: ` +
        leftovers.map((p) => `"${p}"`).join(", "),
    );
  }
  if (status.problem) warnings.push(`${status.problem.message}\nhint: ${status.problem.hint}`);
  if (mode !== "danger-full-access" && !(status.kind === "bwrap" && status.enforced)) {
    warnings.push("File tools run without an OS sandbox: symlink escapes are not blocked");
  }
  if (mode === "danger-full-access") {
    warnings.push(
      opts.yolo
        ? "--yolo: commands run without a sandbox and without asking for approval"
        : "sandbox_mode is danger-full-access: commands run without a sandbox",
    );
  }
  return {
    sandbox,
    fs,
    scratch,
    async [Symbol.asyncDispose]() {
      await helper[Symbol.asyncDispose]();
      await scratch[Symbol.asyncDispose]();
      await sandbox.close();
    },
    env,
    networkAllowed,
    beforeToolCall,
    banner: `sandbox: ${status.description}\napproval: ${policy}`,
    warnings,
    promptNote: promptNote(
      status.description,
      status.enforced || mode === "danger-full-access",
      policy,
    ),
  };
}

function promptNote(description: string, confined: boolean, policy: string): string {
  const where = confined
    ? `Commands run under this sandbox: ${description}.`
    : `Commands cannot be sandboxed here (${description}); each one needs the user's approval.`;
  const approvals: Record<string, string> = {
    "untrusted": "Commands that are not known to be read-only need the user's approval.",
    "on-request": "If a command truly needs to run outside the sandbox (network, writes " +
      "elsewhere), request escalation through the tool's parameter with a one-sentence " +
      "justification; the user approves or refuses.",
    "on-failure": "If a command fails because of the sandbox, the user is asked whether to " +
      "rerun it unsandboxed.",
    "never": "No approval can be asked: work within the sandbox, and report what it prevents.",
  };
  return `${where} ${approvals[policy] ?? ""}`.trim();
}
