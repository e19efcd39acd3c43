/**
 * The first of the two steps of opening a session: what a front end asked for, resolved. The
 * trust check, the resume lookup (by id, name or `--last`), a fork's copy, the saved session and
 * the settings it was using, and the working directory come back as one `Opening`, or as a typed
 * error (opening_errors.ts, `UntrustedDirectoryError`) the front end words its own way.
 * `openSession()` (open.ts) takes the `Opening` and repeats none of it.
 */
import { configHome } from "../config/load.ts";
import {
  type ForkedSession,
  forkSession,
  readSession,
  type SavedSession,
  sessionSummary,
} from "../store/mod.ts";
import { findResumable, type FoundSession, type SettingsInUse, settingsInUse } from "./resume.ts";
import { checkTrustedDirectory } from "./trust.ts";
import type { ResumeTarget, SessionConfig, SessionSettings } from "./types.ts";

/** What a front end asks to open. */
export interface OpeningRequest {
  /** The session's config; its `resume` names the saved session to continue. */
  config: SessionConfig;
  /** The environment (for the interpreter home); default the process's. */
  env?: Record<string, string>;
  /**
   * What `resume: { id }` may be: `"any"` (default, the command line) a session id, its first
   * characters, a session file or a session's name; `"id"` a whole session id only (ACP, the MCP
   * server), anything else a `NotASessionIdError`.
   */
  accept?: "any" | "id";
  /**
   * The working directory of a resumed session: `"request"` (default) `config.cwd`; `"saved"` the
   * one the session was started in while it is still a directory (`config.cwd` otherwise).
   */
  cwd?: "request" | "saved";
  /** Continue a copy of the saved session, the original left as it is (`interpreter fork`). */
  fork?: boolean;
  /** The command that starts a session, for the hint of "no saved session". */
  startCommand?: string;
}

/** A saved session an `Opening` continues. */
export interface ResumedSession {
  id: string;
  file: string;
  saved: SavedSession;
  /** The directory the session was started in. */
  cwd: string;
  /** What it was using when it stopped, to continue with unless the config chooses otherwise. */
  settings: SettingsInUse;
}

const RESOLVED: unique symbol = Symbol("resolved opening");

/** What `openSession()` opens: a request resolved by `resolveOpening()`. */
export interface Opening {
  readonly [RESOLVED]: true;
  /** The config to open with: the final working directory, no `resume` left to look up. */
  readonly config: Readonly<SessionConfig>;
  /** The saved session continued, if any. */
  readonly resumed?: ResumedSession;
  /** The copy `fork` made (it is what `resumed` continues). */
  readonly forked?: ForkedSession;
  /** The worktree the session works in, as the banner names it (worktree_start.ts). */
  readonly worktree?: string;
  /** Added to the session's environment (a worktree's trust source). */
  readonly env?: Record<string, string>;
  /** Told as warnings once the session has started (a resumed session's worktree is gone). */
  readonly notes?: string[];
}

/** What a front end may still change of a resolved opening: nothing the checks depended on. */
export type OpeningChanges = Omit<Partial<SessionConfig>, "cwd" | "resume" | "skipGitRepoCheck">;

/**
 * Resolves `request` (see the module comment). The trust check runs first, so a directory that
 * is refused is refused before anything is looked up, except with `cwd: "saved"`, where the
 * saved session's directory is checked once found.
 */
export async function resolveOpening(request: OpeningRequest): Promise<Opening> {
  const { resume, worktree, ...config } = request.config;
  if (request.cwd !== "saved" || !resume) await checkTrustedDirectory(config);
  let fresh: Opening = { [RESOLVED]: true, config };
  if (worktree !== undefined) {
    const { intoNewWorktree } = await import("./worktree_start.ts");
    fresh = { ...fresh, ...await intoNewWorktree(config, worktree, request.env) };
  }
  return resume ? await resumedIn(fresh, resume, request) : fresh;
}

/**
 * `opening` (a fresh one, its checks done) continuing the saved session `target` names: the
 * second half of `resolveOpening()`, for a target known later (the REPL's picker, `/resume`).
 */
export async function resumedIn(
  opening: Opening,
  target: ResumeTarget,
  request: Omit<OpeningRequest, "config">,
): Promise<Opening> {
  const config = { ...opening.config };
  const env = request.env ?? Deno.env.toObject();
  const home = configHome(env, config.cwd);
  let found: FoundSession = await findResumable(target, {
    cwd: config.cwd,
    home,
    accept: request.accept,
    startCommand: request.startCommand,
  });
  if (request.cwd === "saved") {
    config.cwd = await savedDirectory(found.file) ?? config.cwd;
    await checkTrustedDirectory(config);
  }
  const forked = request.fork ? await forkSession(home, found.file) : undefined;
  if (forked) found = { id: forked.id, file: forked.file };
  const saved = await readSession(found.file);
  const resumed: ResumedSession = {
    ...found,
    saved,
    cwd: saved.header.cwd,
    settings: settingsInUse(saved),
  };
  const opened: Opening = { [RESOLVED]: true, config, resumed, ...(forked ? { forked } : {}) };
  // A session made in a worktree goes back into it, or is told it is gone (worktree_start.ts).
  if (!resumed.cwd.startsWith(`${home}/worktrees/`)) return opened;
  const { backToWorktree } = await import("./worktree_start.ts");
  return { ...opened, ...await backToWorktree(config, resumed.cwd, home) };
}

/** `opening` with `changes` made to its config (a mode's sandbox, a local server picked). */
export function reconfigured(opening: Opening, changes: OpeningChanges): Opening {
  const { cwd, skipGitRepoCheck } = opening.config;
  return { ...opening, config: { ...opening.config, ...changes, cwd, skipGitRepoCheck } };
}

/** The config that opens a session with `settings` (what a session runs with now). */
export function settingsConfig(settings: SessionSettings): OpeningChanges {
  const s = settings;
  return {
    model: s.model,
    provider: s.provider,
    harness: s.harness,
    sandbox: s.sandboxMode,
    approval: s.approvalPolicy,
    ...(s.reasoningEffort ? { reasoningEffort: s.reasoningEffort } : {}),
  };
}

/** `opening` without the saved session it continues (what `/new` opens next to it). */
export function freshOpening(opening: Opening): Opening {
  const { worktree, env } = opening;
  return { [RESOLVED]: true, config: opening.config, ...(worktree ? { worktree, env } : {}) };
}

/** Whether `value` came from `resolveOpening()` (or `reconfigured()`). */
export function isOpening(value: unknown): value is Opening {
  return typeof value === "object" && value !== null && RESOLVED in value;
}

/** The directory session `file` was started in, while it still is one. */
async function savedDirectory(file: string): Promise<string | undefined> {
  const { cwd } = await sessionSummary(file);
  const info = await Deno.stat(cwd).catch(() => undefined);
  return info?.isDirectory ? cwd : undefined;
}
