/**
 * The sandboxes of `interpreter eval`, which runs what a task names on files the agent wrote.
 *
 * Its git commands go through the safe git runner (repository config that would run a program is
 * neutralised, the work tree pinned) inside a command sandbox without network: a read-only one
 * to look at the repository, a workspace-write one whose only writable root is the job's copies
 * folder to make copies and take their diffs. The copies are written by the agent, so their git
 * commands are as hostile as anything the model runs.
 *
 * A task's setup and check (a planted `conftest.py` runs with `pytest`) run in the project's
 * command sandbox under bubblewrap, whatever `-s` says, with the environment filtered as for the
 * agent's own commands; where bubblewrap cannot confine them, eval refuses to start.
 */
import { loadConfig } from "../config/load.ts";
import { UserError } from "../errors.ts";
import { openGitRunner } from "../workspace/safe_git.ts";
import { findGitRoot } from "../workspace/git_root.ts";
import {
  type CommandSandbox,
  openCommandSandbox,
  type SandboxStatus,
} from "../../sandbox/command_sandbox.ts";
import { commandEnvironment } from "../../sandbox/env_policy.ts";

/** Runs eval's git commands; dispose it to remove the sandbox's temp files. */
export interface EvalGit extends AsyncDisposable {
  /** git's stdout; a `UserError` with git's first error line when it fails or cannot run. */
  run(args: string[], cwd: string): Promise<string>;
  /** The top folder of the repository holding `cwd`, as git names it; none outside one. */
  repositoryTop(cwd: string): Promise<string | undefined>;
}

/** Options of `openEvalGit()`. */
export interface EvalGitOptions {
  /** The environment git runs with (already filtered: it needs no keys). */
  env: Record<string, string>;
  /** The one folder git may write to (the copies folder); none: read-only. */
  writableRoot?: string;
}

/** Opens eval's git runner. */
export async function openEvalGit(opts: EvalGitOptions): Promise<EvalGit> {
  const sandbox = await openCommandSandbox({
    ...(opts.env.OPENINTERPRETER_BWRAP ? { bwrap: opts.env.OPENINTERPRETER_BWRAP } : {}),
    mode: opts.writableRoot ? "workspace-write" : "read-only",
    writableRoots: opts.writableRoot ? [opts.writableRoot] : [],
    networkAccess: false,
    // The copies' .git folders are below the root, and git must write them.
    protectedNames: [],
    // The repository and the copies may lie under /tmp; git sees the host's /tmp read-only.
    privateTmp: false,
  });
  const runner = await openGitRunner({ env: opts.env, sandbox });
  const run = async (args: string[], cwd: string) => {
    const out = await runner.run(args, cwd);
    if (out.ok) return out.stdout;
    const why = out.skipped ?? out.error ?? "it failed";
    throw new UserError(`git ${args[0]} failed in "${cwd}": ${why}`, {
      hint: "Check that the repository is in a normal state (no rebase or merge in progress)",
    });
  };
  return {
    run,
    async repositoryTop(cwd) {
      if (await findGitRoot(cwd) === undefined) return undefined;
      return await run(["rev-parse", "--show-toplevel"], cwd).catch(() => undefined);
    },
    async [Symbol.asyncDispose]() {
      await runner[Symbol.asyncDispose]();
      await sandbox.close();
    },
  };
}

/** A bubblewrap sandbox for a task's setup or check; dispose it to remove its temp files. */
export type CheckSandbox = CommandSandbox & AsyncDisposable;

/**
 * A workspace-write bubblewrap sandbox whose writable folders are `writable`, the network on only
 * when asked; a `UserError` that says why when bubblewrap cannot confine commands here.
 */
export async function openCheckSandbox(
  env: Record<string, string>,
  opts: { writable: string[]; network: boolean },
): Promise<CheckSandbox> {
  const sandbox = await openCommandSandbox({
    // The bubblewrap program to use instead of the system's (a test makes it missing this way).
    ...(env.OPENINTERPRETER_BWRAP ? { bwrap: env.OPENINTERPRETER_BWRAP } : {}),
    mode: "workspace-write",
    writableRoots: opts.writable,
    networkAccess: opts.network,
  });
  if (sandbox.status.kind !== "bwrap" || !sandbox.status.enforced) {
    await sandbox.close();
    throw unconfined(sandbox.status);
  }
  return { ...sandbox, [Symbol.asyncDispose]: () => sandbox.close() };
}

function unconfined(status: SandboxStatus): UserError {
  if (Deno.build.os !== "linux") {
    return new UserError(
      `Cannot run eval on ${Deno.build.os}: the setup and check commands of its tasks run ` +
        "only in bubblewrap, which needs Linux",
      { hint: "Run eval on Linux (or in WSL2 or a Linux container) with bubblewrap installed" },
    );
  }
  const cause = (status.problem?.message ?? "the command sandbox is unavailable")
    .replace(/^Command sandbox unavailable: /, "");
  const hint = (status.problem?.hint ?? "Install bubblewrap")
    .replace(/; or approve each command to run it unsandboxed$/, "")
    .replace(/,? or restart with --sandbox danger-full-access[^;]*$/, "");
  return new UserError(
    `Cannot run eval: the setup and check commands of its tasks run only in bubblewrap, and ` +
      `${cause}`,
    { hint },
  );
}

/**
 * The environment the agent's commands get in `cwd` under the config that `-c` overrides and a
 * profile make (`[shell_environment_policy]`: no variable named like a key, secret or token
 * unless the policy says so).
 */
export async function agentCommandEnvironment(
  cwd: string,
  opts: { env: Record<string, string>; overrides: string[]; profile?: string },
): Promise<Record<string, string>> {
  const config = await loadConfig({
    cwd,
    env: opts.env,
    flags: {},
    overrides: opts.overrides,
    profile: opts.profile,
  });
  return commandEnvironment(config.values.shell_environment_policy, opts.env);
}
