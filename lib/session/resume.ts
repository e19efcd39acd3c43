/**
 * The one resume lookup: which saved session a `ResumeTarget` names. `resolveOpening()`
 * (opening.ts) runs it for every front end, so `--last` means the same everywhere: the newest
 * session that holds a message the user typed (a fresh `/new` session is passed over). An id
 * target may be a session id, its first characters, a session file or a session's name, unless
 * the lookup accepts full ids only (the editor protocols).
 */
import { resolve } from "node:path";
import {
  findSessions,
  isIdPrefix,
  isPathRef,
  isSessionId,
  readSessionNames,
  type SavedSession,
  type SessionOrigin,
  sessionsByIdPrefix,
  sessionsRoot,
  type SessionSummary,
  sessionSummary,
} from "../store/mod.ts";
import {
  AmbiguousSessionError,
  NotASessionIdError,
  type SessionCandidate,
  SessionNotFoundError,
} from "./opening_errors.ts";
import type { ResumeTarget, SessionConfig } from "./types.ts";

/** A saved session found for a target: its file and its id. */
export interface FoundSession {
  file: string;
  id: string;
}

/** Where to look, what to accept, and how the error for "none found" tells the user to start one. */
export interface ResumeLookup {
  /** The working directory: `{ last }` without `all` looks only at its sessions. */
  cwd: string;
  /** The interpreter home, whose `sessions` folder is searched. */
  home: string;
  /** The command that starts a session, for the hint; default `interpreter`. */
  startCommand?: string;
  /**
   * What an id target may be: `"any"` (default, the command line) a session id, its first
   * characters, a session file or a name; `"id"` a whole session id only.
   */
  accept?: "any" | "id";
}

/** Finds the session `target` names; a typed error (opening_errors.ts) when there is none. */
export async function findResumable(
  target: ResumeTarget,
  lookup: ResumeLookup,
): Promise<FoundSession> {
  if ("id" in target) {
    if (lookup.accept === "id") return await findById(target.id, lookup.home);
    if (isPathRef(target.id)) return await findFile(target.id);
    return await findByRef(target.id, lookup.home);
  }
  const [newest] = await resumableSessions(lookup.home, {
    cwd: target.all ? undefined : lookup.cwd,
    // Sessions made in the repository's worktrees (`--worktree`) are its sessions too.
    alsoUnder: target.all ? undefined : await worktreesOf(lookup),
    origin: target.origin,
    limit: 1,
  });
  if (newest) return { file: newest.file, id: newest.id };
  throw noSavedSession(target, lookup);
}

/** The folder of the worktrees of the repository `lookup.cwd` is the root of, if it is one. */
async function worktreesOf(lookup: ResumeLookup): Promise<string | undefined> {
  const { findGitRoot } = await import("../workspace/git_root.ts");
  const root = await findGitRoot(lookup.cwd).catch(() => undefined);
  if (root === undefined || resolve(root) !== resolve(lookup.cwd)) return undefined;
  const { worktreesFolder } = await import("../workspace/worktree.ts");
  return await worktreesFolder(lookup.home, root);
}

/** The sessions one can resume (those that hold a user message), newest first. */
export async function resumableSessions(
  home: string,
  opts: { cwd?: string; alsoUnder?: string; origin?: SessionOrigin; limit?: number } = {},
): Promise<SessionSummary[]> {
  return await findSessions(home, { ...opts, withPrompt: true });
}

async function findById(id: string, home: string): Promise<FoundSession> {
  if (!isSessionId(id)) throw new NotASessionIdError(id);
  const [found] = await sessionsByIdPrefix(home, id);
  if (found?.id === id) return found;
  throw new SessionNotFoundError(
    { id },
    `No session with id "${id}" in "${sessionsRoot(home)}"`,
    "List the saved sessions to find its id",
  );
}

async function findFile(path: string): Promise<FoundSession> {
  const file = resolve(path);
  const info = await Deno.stat(file).catch(() => undefined);
  if (!info?.isFile) {
    throw new SessionNotFoundError(
      { id: path },
      `Session file "${path}" does not exist`,
      'Give an existing session file, or a session id as shown by "interpreter resume"',
    );
  }
  return { file, id: (await sessionSummary(file)).id };
}

/**
 * The one session `ref` names: its id, the start of its id, or its name. Matching several (a
 * name two sessions share, a short prefix) is an error listing them.
 */
async function findByRef(ref: string, home: string): Promise<FoundSession> {
  const byId = isIdPrefix(ref) ? await sessionsByIdPrefix(home, ref) : [];
  if (byId.length === 1 && byId[0].id === ref.toLowerCase()) return byId[0];
  const names = await readSessionNames(home);
  const named = [...names].filter(([, name]) => name === ref.trim()).map(([id]) => id);
  const ids = new Set([...byId.map((m) => m.id), ...named]);
  const files = new Map(byId.map((m) => [m.id, m.file]));
  for (const id of named) {
    if (files.has(id)) continue;
    const [match] = await sessionsByIdPrefix(home, id);
    if (match?.id === id) files.set(id, match.file);
    else ids.delete(id); // a name left behind by a deleted session
  }
  if (ids.size === 1) {
    const [id] = ids;
    return { id, file: files.get(id)! };
  }
  if (ids.size === 0) throw notFound(ref, home);
  const candidates = await Promise.all([...ids].map(async (id): Promise<SessionCandidate> => {
    const summary = await sessionSummary(files.get(id)!);
    const name = names.get(id);
    return { id, cwd: summary.cwd, created: summary.created, ...(name ? { name } : {}) };
  }));
  candidates.sort((a, b) => b.created.getTime() - a.created.getTime());
  throw new AmbiguousSessionError(ref, candidates);
}

function notFound(ref: string, home: string): SessionNotFoundError {
  const what = isIdPrefix(ref) ? `with id "${ref}"` : `with the id or name "${ref}"`;
  return new SessionNotFoundError(
    { id: ref },
    `No session ${what} in "${sessionsRoot(home)}"`,
    'Run "interpreter resume" to pick one from the list; a session is named with /rename',
  );
}

function noSavedSession(
  target: Extract<ResumeTarget, { last: true }>,
  lookup: ResumeLookup,
): SessionNotFoundError {
  const what = target.origin === "repl" ? "REPL session" : "session";
  const start = `start one with "${lookup.startCommand ?? "interpreter"}"`;
  return new SessionNotFoundError(
    target,
    `No saved ${what}${target.all ? "" : ` for "${lookup.cwd}"`}`,
    target.all
      ? start.charAt(0).toUpperCase() + start.slice(1)
      : `Add --all to look in every directory, or ${start}`,
  );
}

/** The model, provider, harness and reasoning effort a saved session was last using. */
export interface SettingsInUse {
  model: string;
  provider: string;
  harness: string;
  reasoningEffort?: string;
}

/** What `saved` was using when it stopped: its header, then every switch in order. */
export function settingsInUse(saved: SavedSession): SettingsInUse {
  const { header } = saved;
  const inUse: SettingsInUse = {
    model: header.model,
    provider: header.provider,
    harness: header.harness,
    ...(header.reasoningEffort ? { reasoningEffort: header.reasoningEffort } : {}),
  };
  for (const event of saved.events) {
    if (event.type === "harness_switch") inUse.harness = event.harness;
    if (event.type === "model_switch") {
      inUse.model = event.model;
      inUse.provider = event.provider;
      if (event.reasoningEffort) inUse.reasoningEffort = event.reasoningEffort;
    }
  }
  return inUse;
}

const FROM_SESSION = "the resumed session";

/**
 * `config` for continuing a saved session that was using `inUse` (`settingsInUse()`): its model,
 * provider, harness and effort, except where `config` chooses its own (a flag, a profile).
 * Choosing a model lets the harness be chosen for it again.
 */
export function withSettingsInUse(config: SessionConfig, inUse: SettingsInUse): SessionConfig {
  const overridden = (...keys: string[]) =>
    config.overrides?.some((o) => keys.includes(String(o.keyPath[0]))) ?? false;
  const modelChosen = Boolean(config.model || config.provider || config.oss || config.profile) ||
    overridden("model", "model_provider", "oss_provider", "profile");
  const harnessChosen = Boolean(config.harness || config.wireApi) || modelChosen ||
    overridden("harness", "wire_api");
  const effort = inUse.reasoningEffort as SessionConfig["reasoningEffort"];
  const out: SessionConfig = { ...config, labels: { ...config.labels } };
  if (!modelChosen) {
    Object.assign(out, { model: inUse.model, provider: inUse.provider });
    Object.assign(out.labels!, { model: FROM_SESSION, provider: FROM_SESSION });
    if (effort && !config.reasoningEffort && !overridden("model_reasoning_effort")) {
      out.reasoningEffort = effort;
      out.labels!.reasoningEffort = FROM_SESSION;
    }
  }
  if (!harnessChosen) {
    out.harness = inUse.harness;
    out.labels!.harness = FROM_SESSION;
  }
  return out;
}
