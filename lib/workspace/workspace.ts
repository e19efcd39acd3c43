/**
 * The workspace: what a session knows about the project it works in. The working directory and
 * its repository, the git runner the agent's own git commands go through (safe_git.ts), the
 * files held back because they changed while an earlier session ran (held_back.ts), the prompt
 * variables, the instruction files and the skills. A session opens its own unless its caller
 * gives it one (`SessionDeps.workspace`). `interpreter eval` gives none: each trial runs
 * `interpreter exec` in its isolated copy, which opens its session as any front end does.
 */
import { secureHome } from "../config/home.ts";
import { findProjectRoot } from "../config/load.ts";
import type { Harness, PromptVars } from "../harness/types.ts";
import type { SkillInfo } from "../tools/skills.ts";
import { type FileSystem, inProcessFs } from "../../sandbox/file_system.ts";
import { workingTreeDiff } from "./diff.ts";
import { findGitRoot } from "./git_root.ts";
import { type ChangeWatch, openChangeWatch } from "./held_back.ts";
import {
  findInstructions,
  type FoundInstructions,
  type InstructionKind,
  type InstructionOptions,
} from "./instructions.ts";
import { gatherPromptVars, type SessionPromptValues } from "./prompt_vars.ts";
import { repoGit } from "./repo_git.ts";
import { type GitResult, type GitRunner, openGitRunner } from "./safe_git.ts";
import { discoverSkills } from "./skills.ts";

export type { InstructionOptions } from "./instructions.ts";

/** An open workspace. Dispose it to record what changed (held_back.ts) and stop the git runner. */
export interface Workspace extends AsyncDisposable {
  /** The working directory, absolute. */
  readonly cwd: string;
  /** The interpreter home the held-back records are kept in. */
  readonly home: string;
  /** The repository root when the workspace was opened, else `cwd`: project config stops here. */
  readonly projectRoot: string;
  /** Runs git so that repository config cannot execute anything (safe_git.ts). */
  readonly git: GitRunner;
  /** Held-back absolute paths, sorted: files, and folders held back whole. */
  readonly heldBack: readonly string[];
  /** The start-up lines naming what was held back, why, and how to allow it. */
  readonly notices: readonly string[];
  /** True for a held-back file and for anything in a folder held back whole. */
  isHeldBack(path: string): boolean;
  /**
   * Holds back the instruction files of `names` (`project_doc_fallback_filenames`) as it does
   * `AGENTS.override.md`: watched from now on, so call it before any command runs; those that
   * changed while an earlier session ran join `heldBack` and `notices`.
   */
  watchInstructionNames(names: readonly string[]): Promise<void>;
  /** The repository around `cwd` now (a session may create one), if any. */
  gitRoot(): Promise<string | undefined>;
  /** The prompt variables `harness`'s templates use, with the session's values. */
  promptVars(harness: Harness, session: SessionPromptValues): Promise<PromptVars>;
  /** The AGENTS.md or CLAUDE.md files that apply here, in reading order (instructions.ts). */
  instructions(kind: InstructionKind, opts?: InstructionOptions): Promise<FoundInstructions>;
  /**
   * The Agent Skills found from `cwd` up and in the homes, held-back ones left out. `fs` reads
   * the folders (default: this process; a session passes its sandboxed file system).
   */
  skills(fs?: FileSystem): Promise<SkillInfo[]>;
  /**
   * Adds skills from elsewhere (custom commands a model may invoke), after the SKILL.md ones; a
   * name a SKILL.md has keeps the SKILL.md.
   */
  addSkills(source: () => Promise<SkillInfo[]>): void;
  /**
   * Skill discovery finds the project root by these names from now on (`project_root_markers`,
   * read once the config is loaded); undefined: the default, `.git`.
   */
  useRootMarkers(markers: readonly string[] | undefined): void;
  /** One line per SKILL.md that does not load and per name clash among skills (skills.ts). */
  skillWarnings(fs?: FileSystem): Promise<string[]>;
  /** The working tree against HEAD, untracked files included (`/diff`). */
  diff(): Promise<string>;
  /** Runs one git command of the agent's own at the repository root (`/review`). */
  repoGit(args: string[]): Promise<GitResult>;
}

/** Where a workspace keeps its records and what it reads the user's environment from. */
export interface WorkspaceOptions {
  /** The interpreter home (`configHome()`): held-back records, `AGENTS.md`, `skills/`. */
  home: string;
  /** The environment: `HOME` (user skills, CLAUDE.md), `SHELL`, git's environment. */
  env: Record<string, string>;
  /** `project_root_markers`: where skill discovery stops going up; default `[".git"]`. */
  rootMarkers?: readonly string[];
}

/**
 * Opens the workspace at `cwd`: makes sure the home is private, starts the change watch from
 * `cwd` up to the project root and opens the git runner.
 */
export async function openWorkspace(cwd: string, opts: WorkspaceOptions): Promise<Workspace> {
  const { home, env } = opts;
  await secureHome(home);
  const projectRoot = await findProjectRoot(cwd);
  const { watch, git } = await openParts({ cwd, root: projectRoot, home, env });
  const isHeldBack = watch.isHeld;
  const gitRoot = () => findGitRoot(cwd);
  const instructions = (kind: InstructionKind, given?: InstructionOptions) =>
    findInstructions(kind, { cwd, home, userHome: env.HOME, isHeldBack }, given);
  let rootMarkers = opts.rootMarkers;
  const discover = (fs: FileSystem = inProcessFs) =>
    discoverSkills(cwd, { home, userHome: env.HOME, fs, isHeldBack, rootMarkers });
  const extra: Array<() => Promise<SkillInfo[]>> = [];
  const skills = async (fs?: FileSystem) => withExtra((await discover(fs)).skills, extra);
  const sources = { cwd, env, git, isHeldBack, gitRoot, instructions, skills: () => skills() };
  return {
    cwd,
    home,
    projectRoot,
    git,
    heldBack: watch.held,
    notices: watch.notices,
    isHeldBack,
    watchInstructionNames: (names) => watch.watchNames(names),
    gitRoot,
    instructions,
    skills,
    addSkills: (source) => void extra.push(source),
    useRootMarkers: (markers) => {
      rootMarkers = markers;
    },
    skillWarnings: async (fs) => (await discover(fs)).warnings,
    promptVars: (harness, session) => gatherPromptVars(sources, harness, session),
    diff: () => workingTreeDiff(git, cwd, isHeldBack),
    repoGit: (args) => repoGit({ git, isHeldBack }, cwd, args),
    async [Symbol.asyncDispose]() {
      try {
        await watch.close();
      } finally {
        await git[Symbol.asyncDispose]();
      }
    },
  };
}

/** The change watch and the git runner, opened together; neither is left open when one fails. */
async function openParts(
  opts: { cwd: string; root: string; home: string; env: Record<string, string> },
): Promise<{ watch: ChangeWatch; git: GitRunner }> {
  const [watch, git] = await Promise.allSettled([
    openChangeWatch({ cwd: opts.cwd, root: opts.root, home: opts.home }),
    openGitRunner({ env: opts.env, readablePaths: [opts.root] }),
  ]);
  if (watch.status === "fulfilled" && git.status === "fulfilled") {
    return { watch: watch.value, git: git.value };
  }
  if (watch.status === "fulfilled") await watch.value.close();
  if (git.status === "fulfilled") await git.value[Symbol.asyncDispose]();
  throw watch.status === "rejected" ? watch.reason : (git as PromiseRejectedResult).reason;
}

/** `found` and then the skills of `extra` whose names it does not have. */
async function withExtra(
  found: SkillInfo[],
  extra: ReadonlyArray<() => Promise<SkillInfo[]>>,
): Promise<SkillInfo[]> {
  if (extra.length === 0) return found;
  const names = new Set(found.map((s) => s.name));
  const more = (await Promise.all(extra.map((source) => source().catch(() => [])))).flat();
  return [...found, ...more.filter((s) => !names.has(s.name) && names.add(s.name))];
}
