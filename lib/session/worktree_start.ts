/**
 * Sessions that work in a git worktree from their start: `--worktree [NAME]` (a new worktree
 * made before the session opens) and the resume of a session made in one (back into it, or a
 * note that it is gone). The worktree module (lib/workspace/worktree.ts) does the git work and
 * puts every worktree under `<home>/worktrees/`; this module turns one into what the session
 * opens with: its folder as the working directory, the sandbox's writable roots following it,
 * the main repository named as the trust source, and the line the banner shows.
 */
import { join, relative, sep } from "node:path";
import { configHome } from "../config/load.ts";
import { TRUST_SOURCE_ENV } from "../config/trust_store.ts";
import { ToolError, UserError } from "../errors.ts";
import {
  checkWorktreeName,
  createWorktree,
  mainRepositoryOf,
  openWorktree,
  randomWorktreeName,
  repositoryAt,
  type Worktree,
  worktreeWritableRoots,
} from "../workspace/worktree.ts";
import { checkTrustedDirectory } from "./trust.ts";
import type { SessionConfig } from "./types.ts";

/** What a session opened in a worktree gets: the parts of its `Opening` (opening.ts) it sets. */
export interface WorktreeOpening {
  config: SessionConfig;
  /** Added to the session's environment: the main repository as the trust source. */
  env: Record<string, string>;
  /** The banner's line: name, branch and folder. */
  worktree: string;
}

/** The banner's line for `wt`. */
function worktreeLine(wt: Pick<Worktree, "name" | "branch" | "path">): string {
  return `${wt.name} (branch ${wt.branch || "detached"}) at ${wt.path}`;
}

/** `config` moved into `wt`: its folder, the writable roots that follow it, the trust source. */
function openingIn(config: SessionConfig, wt: Worktree): WorktreeOpening {
  const extra = (config.writableRoots ?? []).filter((root) => root !== config.cwd);
  const roots = worktreeWritableRoots(wt, extra).filter((root) => root !== wt.path);
  return {
    config: { ...config, cwd: wt.path, writableRoots: roots },
    env: { [TRUST_SOURCE_ENV]: wt.repoRoot },
    worktree: worktreeLine(wt),
  };
}

/**
 * `config` opened in a new worktree `name` (a generated name for `true`) of the repository its
 * working directory is in, on a new branch from HEAD. Bad names and folders outside a
 * repository are usage errors naming the fix.
 */
export async function intoNewWorktree(
  config: SessionConfig,
  name: string | true,
  given?: Record<string, string>,
): Promise<WorktreeOpening> {
  const env = given ?? Deno.env.toObject();
  const git = { env, home: configHome(env, config.cwd) };
  try {
    const named = name === true ? randomWorktreeName() : checkWorktreeName(name);
    const wt = await createWorktree(git, await repositoryAt(config.cwd), named);
    return openingIn(config, wt);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    throw new UserError(`Cannot start in a worktree: ${error.message}`, {
      hint: error.hint,
      exitCode: 2,
    });
  }
}

/**
 * The worktree at `dir` (a folder under `<home>/worktrees/`), read from its files; undefined
 * when it is no longer a linked worktree.
 */
export async function worktreeAt(home: string, dir: string): Promise<Worktree | undefined> {
  const repoRoot = await mainRepositoryOf(dir).catch(() => undefined);
  if (!repoRoot || repoRoot === dir) return undefined;
  const { commonDir } = await repositoryAt(repoRoot);
  // `<home>/worktrees/<repo>-<digest>/<name>`: the name is the rest of the path.
  const name = relative(join(home, "worktrees"), dir).split(sep).slice(1).join("/") || dir;
  const wt = await openWorktree({ name, path: dir, branch: "", base: "", repoRoot, commonDir })
    .catch(() => undefined);
  if (!wt) return undefined;
  const head = await Deno.readTextFile(join(wt.adminDir, "HEAD")).catch(() => "");
  return { ...wt, branch: /^ref: refs\/heads\/(.+)$/m.exec(head)?.[1] ?? "" };
}

/**
 * A resumed session made in the worktree `savedCwd`: `config` moved back into it (and checked
 * as every working directory is), or, when it is gone, a note saying so.
 */
export async function backToWorktree(
  config: SessionConfig,
  savedCwd: string,
  home: string,
): Promise<WorktreeOpening | { notes: string[] }> {
  const wt = await worktreeAt(home, savedCwd);
  if (!wt) {
    const gone = `This session was made in worktree ${savedCwd}, which is gone (removed); it ` +
      `goes on in ${config.cwd}`;
    return { notes: [gone] };
  }
  const back = openingIn(config, wt);
  await checkTrustedDirectory(back.config);
  return back;
}
