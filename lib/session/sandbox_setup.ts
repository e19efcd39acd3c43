/**
 * The session's command sandbox and approval hook, from the merged config: which sandbox,
 * which writable roots, which environment, and how approval questions are asked.
 */
import { join, resolve } from "node:path";
import type { ApprovalPolicy, ConfigValues } from "../config/schema.ts";
import { makeHomeDir } from "../config/home.ts";
import {
  approvalHook,
  type ApprovalHookOptions,
  type ApprovalStep,
  type Approver,
} from "../approval/hook.ts";
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
import { type FileSystem, forwardingFileSystem } from "../../sandbox/file_system.ts";
import { fileSystemFor } from "../../sandbox/fs_helper_client.ts";
import { lazyFileSystem } from "../../sandbox/lazy_file_system.ts";
import { cleanStaleSessions, SessionScratch } from "../../sandbox/scratch_space.ts";
import { journaledFileSystem } from "../../sandbox/write_journal.ts";
import { type OpenRestoreWriter, restoreWriterOpener } from "./checkpoints/_restore_writer.ts";
import { sandboxRefusal, sandboxWarnings } from "./sandbox_checks.ts";

/**
 * Everything a mode needs to run commands under the sandbox and approvals in use. Its mode and
 * policy change in place (`check()`, then `apply()`): what reads them reads them at each call.
 */
export interface SessionSandbox extends AsyncDisposable {
  sandbox: CommandSandbox;
  /** The sandbox mode in use. */
  readonly mode: SandboxMode;
  /** The approval policy in use. */
  readonly policy: ApprovalPolicy;
  /** Where commands may write under workspace-write, the working directory first. */
  readonly writableRoots: readonly string[];
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
  /**
   * Opens the sandbox of `next`, refusing a mode that cannot be enforced here; `writableRoots`
   * replaces the roots (the working directory first) when given.
   */
  check(next: AccessWanted): Promise<AccessChange>;
  /** Changes to what `check()` opened; `dropGrants` forgets the approvals given for the session. */
  apply(change: AccessChange, opts: { dropGrants: boolean }): Promise<void>;
  /** Closes what `check()` opened, when the change is not made. */
  discard(change: AccessChange): Promise<void>;
}

/** What `SessionSandbox.check()` is asked to open. */
export interface AccessWanted {
  mode: SandboxMode;
  policy: ApprovalPolicy;
  writableRoots?: string[];
}

/** A checked change of sandbox mode or approval policy, its sandbox open (`SessionSandbox.check`). */
export interface AccessChange {
  mode: SandboxMode;
  policy: ApprovalPolicy;
  networkAllowed: boolean;
  sandbox: CommandSandbox;
  /** The writable roots it was opened with, when they change. */
  writableRoots?: string[];
}

/** Options of `openSessionSandbox()`. */
export interface SessionSandboxOptions {
  cwd: string;
  /** The interpreter home; the session's scratch space lives in its `run` folder. */
  home: string;
  env: Record<string, string>;
  /** Asks the user; absent when no one can answer. */
  ask?: Approver;
  /** Answers a question where no one can be asked (PermissionRequest hooks); see `approvalHook`. */
  answerUnasked?: ApprovalHookOptions["answerUnasked"];
  onDenied?: (message: string, callId?: string) => void;
  /**
   * What the front end calls the setting that chose danger-full-access
   * (`SessionConfig.labels.sandbox`): its warning then names it instead of `sandbox_mode`.
   */
  fullAccessLabel?: string;
  /** Refuse to open when commands cannot be sandboxed and no one may let them run without. */
  requireSandbox?: boolean;
  /** Existing paths hidden from commands: what permission rules deny to `Read`. */
  masked?: ReadonlyArray<{ path: string; folder: boolean }>;
}

/** Probes the sandbox once and builds the session's sandbox, command env and approval hook. */
export async function openSessionSandbox(
  values: ConfigValues,
  opts: SessionSandboxOptions,
): Promise<SessionSandbox> {
  const policy = values.approval_policy;
  const roots = writableRootsOf(values, opts.cwd);
  const scratchRoot = join(opts.home, "run");
  const leftovers = await prepareScratchRoot(scratchRoot);
  const open = (mode: SandboxMode, policy: ApprovalPolicy, writableRoots = roots) =>
    openCommandSandbox({
      // The bubblewrap program to use instead of the system's (a test makes it missing this way).
      ...(opts.env.OPENINTERPRETER_BWRAP ? { bwrap: opts.env.OPENINTERPRETER_BWRAP } : {}),
      mode,
      writableRoots,
      networkAccess: networkAllowedBy(values, mode),
      readablePaths: [scratchRoot],
      masked: opts.masked,
      retryUnsandboxed: policy === "on-failure"
        ? onFailureRerun({
          ask: opts.ask,
          answerUnasked: opts.answerUnasked,
          onDenied: opts.onDenied,
        })
        : undefined,
    });
  const first = await open(values.sandbox_mode, policy);
  const status = first.status;
  const canAsk = opts.ask !== undefined && policy !== "never";
  const refusal = sandboxRefusal(status, { mode: values.sandbox_mode, policy }, opts);
  if (refusal) {
    await first.close();
    throw refusal;
  }
  const scratch = new SessionScratch(scratchRoot);
  const env = commandEnvironment(values.shell_environment_policy, opts.env);
  const access = new SandboxAccess({ values, roots, scratch, env, opts, open });
  access.use(
    { mode: values.sandbox_mode, policy, networkAllowed: networkAllowedBy(values), sandbox: first },
    true,
  );
  return access.view(
    sandboxWarnings({ status, policy, canAsk, leftovers, fullAccessLabel: opts.fullAccessLabel }),
  );
}

/** The parts of a session sandbox that change with its mode and policy. */
class SandboxAccess {
  #now!: AccessChange;
  #helper!: FileSystem & AsyncDisposable;
  #restoreWriter!: OpenRestoreWriter;
  #hook!: ApprovalStep;
  /** Sandboxes of modes left behind: jobs started in them may still run until the end. */
  readonly #retired: CommandSandbox[] = [];
  readonly #fs: FileSystem;

  constructor(
    readonly setup: {
      values: ConfigValues;
      roots: string[];
      scratch: SessionScratch;
      env: Record<string, string>;
      opts: SessionSandboxOptions;
      open: (
        mode: SandboxMode,
        policy: ApprovalPolicy,
        writableRoots?: string[],
      ) => Promise<CommandSandbox>;
    },
  ) {
    // The file tools keep this one object; each call goes to the helper of the mode in use.
    const helper = forwardingFileSystem(() => this.#helper);
    this.#fs = journaledFileSystem(helper, () => setup.scratch.journalDir());
  }

  /** Makes `next` the access in use; `fresh` starts its approvals with no grant. */
  use(next: AccessChange, fresh: boolean): void {
    const { roots, opts } = this.setup;
    const { mode, policy, sandbox } = next;
    const status = sandbox.status;
    this.#now = next;
    this.#helper = fileToolHelper(mode, mode === "workspace-write" ? roots : [], status);
    this.#restoreWriter = restoreWriterOpener({
      mode,
      bwrap: status.kind === "bwrap" && status.enforced,
      fullAccessLabel: opts.fullAccessLabel,
      journalDir: () => this.setup.scratch.journalDir(),
    });
    this.#facts = { policy, sandbox: { mode, enforced: status.enforced, problem: status.problem } };
    if (fresh) this.#hook = this.#newHook();
  }

  /** What the approval hook reads at each call: the policy and sandbox in use. */
  #facts!: Pick<ApprovalHookOptions, "policy" | "sandbox">;

  /** An approval hook over the access in use, with no session grant yet. */
  #newHook(): ApprovalStep {
    const { env, opts } = this.setup;
    // deno-lint-ignore no-this-alias
    const self = this;
    return approvalHook({
      get policy() {
        return self.#facts.policy;
      },
      get sandbox() {
        return self.#facts.sandbox;
      },
      env,
      mutates: (id) => capabilityById(id)?.mutates ?? true,
      ask: opts.ask,
      answerUnasked: opts.answerUnasked,
      onDenied: opts.onDenied,
    });
  }

  async check(next: AccessWanted): Promise<AccessChange> {
    const roots = next.writableRoots;
    const sandbox = await this.setup.open(next.mode, next.policy, roots ?? this.setup.roots);
    const from = this.#now.sandbox.status;
    const refusal = sandboxRefusal(sandbox.status, next, { ...this.setup.opts, from });
    if (refusal) {
      await sandbox.close();
      throw refusal;
    }
    const networkAllowed = networkAllowedBy(this.setup.values, next.mode);
    return { mode: next.mode, policy: next.policy, networkAllowed, sandbox, writableRoots: roots };
  }

  async apply(change: AccessChange, opts: { dropGrants: boolean }): Promise<void> {
    const helper = this.#helper;
    this.#retired.push(this.#now.sandbox);
    if (change.writableRoots) this.setup.roots = change.writableRoots;
    this.use(change, opts.dropGrants);
    await helper[Symbol.asyncDispose]();
  }

  /** The `SessionSandbox` over this access. */
  view(warnings: string[]): SessionSandbox {
    // deno-lint-ignore no-this-alias
    const self = this;
    return {
      get sandbox() {
        return self.#now.sandbox;
      },
      get mode() {
        return self.#now.mode;
      },
      get policy() {
        return self.#now.policy;
      },
      get writableRoots() {
        return self.setup.roots;
      },
      fs: this.#fs,
      scratch: this.setup.scratch,
      restoreWriter: (root) => self.#restoreWriter(root),
      env: this.setup.env,
      get networkAllowed() {
        return self.#now.networkAllowed;
      },
      beforeToolCall: (call, resolved, signal) => self.#hook(call, resolved, signal),
      get banner() {
        return `sandbox: ${self.#now.sandbox.status.description}\napproval: ${self.#now.policy}`;
      },
      warnings,
      check: (next) => this.check(next),
      apply: (change, opts) => this.apply(change, opts),
      discard: (change) => change.sandbox.close(),
      [Symbol.asyncDispose]: () => this.close(),
    };
  }

  async close(): Promise<void> {
    await this.#helper[Symbol.asyncDispose]();
    await this.setup.scratch[Symbol.asyncDispose]();
    for (const sandbox of [...this.#retired, this.#now.sandbox]) await sandbox.close();
  }
}

/** True when the sandbox mode lets commands reach the network. */
function networkAllowedBy(values: ConfigValues, mode = values.sandbox_mode): boolean {
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
