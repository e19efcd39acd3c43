/**
 * What writes a restore's files (`/undo`, `/rewind`, and so in a fork): a file helper started for
 * the one restore under bwrap, with the workspace as its only writable mount and the protected
 * names read-only, so that the kernel confines every write to the workspace however its folders
 * change meanwhile. The session's own helper is not used: it may write more roots (or none, in a
 * read-only session), and it cannot make symlinks. Under danger-full-access, or where bwrap
 * cannot run, the restore runs in this process with checks by path only, and says so.
 */
import { DEFAULT_PROTECTED_NAMES } from "../../../sandbox/bwrap_args.ts";
import type { SandboxMode } from "../../../sandbox/command_sandbox.ts";
import { inProcessFs, type RestoringFileSystem } from "../../../sandbox/file_system.ts";
import { defaultBwrap, startFsHelper } from "../../../sandbox/fs_helper_client.ts";
import { journaledFileSystem } from "../../../sandbox/write_journal.ts";

/** The file operations of one restore; dispose it when the restore is done. */
export interface RestoreWriter extends AsyncDisposable {
  fs: RestoringFileSystem;
  /** Why no OS sandbox confined the restore's writes to the workspace; unset when one did. */
  unconfined?: string;
}

/** Opens the writer of one restore of the workspace `root`. */
export type OpenRestoreWriter = (root: string) => Promise<RestoreWriter>;

/** What the session's sandbox is, as far as a restore's writer cares. */
export interface RestoreSandbox {
  mode: SandboxMode;
  /** Whether bwrap confines the session's commands (and so can confine the restore). */
  bwrap: boolean;
  /** What chose danger-full-access (`SessionSandboxOptions.fullAccessLabel`), for the note. */
  fullAccessLabel?: string;
  /** The session's journal of in-flight writes, so that a killed restore leaves no temp file. */
  journalDir?: () => Promise<string>;
}

/** The `OpenRestoreWriter` of a session whose sandbox is `sandbox`. */
export function restoreWriterOpener(sandbox: RestoreSandbox): OpenRestoreWriter {
  return async (root) => {
    if (sandbox.mode === "danger-full-access" || !sandbox.bwrap || Deno.build.os !== "linux") {
      const why = sandbox.mode === "danger-full-access"
        ? sandbox.fullAccessLabel ?? "sandbox_mode is danger-full-access"
        : "bubblewrap cannot run here";
      return {
        fs: inProcessFs,
        unconfined: `This restore ran unconfined (${why}): only checks by path kept its writes ` +
          "in the workspace",
        [Symbol.asyncDispose]: () => Promise.resolve(),
      };
    }
    const helper = await startFsHelper({
      policy: {
        mode: "workspace-write",
        writableRoots: [await Deno.realPath(root)],
        protectedNames: [...DEFAULT_PROTECTED_NAMES],
        networkAccess: false,
        privateTmp: false,
      },
      bwrap: await defaultBwrap(),
      symlinks: true,
    });
    const fs = sandbox.journalDir
      ? { ...journaledFileSystem(helper, sandbox.journalDir), symlink: helper.symlink }
      : helper;
    return { fs, [Symbol.asyncDispose]: () => helper[Symbol.asyncDispose]() };
  };
}
