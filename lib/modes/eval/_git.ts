/**
 * Every git command of eval, through the safe git runner (repository config that would run a
 * program is neutralised, the work tree pinned) inside a command sandbox without network: a
 * read-only one to look at the repository, a workspace-write one whose only writable root is the
 * job's copies folder to make copies and take their diffs. The copies are written by the agent,
 * so their git commands are as hostile as anything the model runs.
 */
import { UserError } from "../../errors.ts";
import { openGitRunner } from "../../workspace/safe_git.ts";
import { openCommandSandbox } from "../../../sandbox/command_sandbox.ts";

/** Runs eval's git commands; dispose it to remove the sandbox's temp files. */
export interface EvalGit extends AsyncDisposable {
  /** git's stdout; a `UserError` with git's first error line when it fails or cannot run. */
  run(args: string[], cwd: string): Promise<string>;
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
  return {
    async run(args, cwd) {
      const out = await runner.run(args, cwd);
      if (out.ok) return out.stdout;
      const why = out.skipped ?? out.error ?? "it failed";
      throw new UserError(`git ${args[0]} failed in "${cwd}": ${why}`, {
        hint: "Check that the repository is in a normal state (no rebase or merge in progress)",
      });
    },
    async [Symbol.asyncDispose]() {
      await runner[Symbol.asyncDispose]();
      await sandbox.close();
    },
  };
}
