/**
 * The one resume lookup: which saved session a `ResumeTarget` names. Exec, the REPL, `/resume`
 * and the editor protocols all go through it, so `--last` means the same everywhere: the newest
 * session that holds a message the user typed (a fresh `/new` session is passed over).
 */
import {
  findSessions,
  resolveSession,
  type SavedSession,
  SessionError,
  type SessionOrigin,
  type SessionSummary,
  sessionSummary,
} from "../store/mod.ts";
import type { ResumeTarget, SessionConfig } from "./types.ts";

/** A saved session found for a target: its file and its id. */
export interface FoundSession {
  file: string;
  id: string;
}

/** Where to look, and how the error for "none found" tells the user to start one. */
export interface ResumeLookup {
  /** The working directory: `{ last }` without `all` looks only at its sessions. */
  cwd: string;
  /** The interpreter home, whose `sessions` folder is searched. */
  home: string;
  /** The command that starts a session, for the hint; default `interpreter`. */
  startCommand?: string;
}

/** Finds the session `target` names; a `SessionError` naming the cause when there is none. */
export async function findResumable(
  target: ResumeTarget,
  lookup: ResumeLookup,
): Promise<FoundSession> {
  if ("id" in target) {
    const file = await resolveSession(lookup.home, target.id);
    return { file, id: (await sessionSummary(file)).id };
  }
  const [newest] = await resumableSessions(lookup.home, {
    cwd: target.all ? undefined : lookup.cwd,
    origin: target.origin,
    limit: 1,
  });
  if (newest) return { file: newest.file, id: newest.id };
  throw noSavedSession(target, lookup);
}

/** The sessions one can resume (those that hold a user message), newest first. */
export async function resumableSessions(
  home: string,
  opts: { cwd?: string; origin?: SessionOrigin; limit?: number } = {},
): Promise<SessionSummary[]> {
  return await findSessions(home, { ...opts, withPrompt: true });
}

function noSavedSession(
  target: Extract<ResumeTarget, { last: true }>,
  lookup: ResumeLookup,
): SessionError {
  const what = target.origin === "repl" ? "REPL session" : "session";
  const start = `start one with "${lookup.startCommand ?? "interpreter"}"`;
  return new SessionError(`No saved ${what}${target.all ? "" : ` for "${lookup.cwd}"`}`, {
    hint: target.all
      ? start.charAt(0).toUpperCase() + start.slice(1)
      : `Add --all to look in every directory, or ${start}`,
  });
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
 * `config` for continuing `saved`: the model, provider, harness and effort the session was using,
 * except where `config` chooses its own (a flag, a profile). Choosing a model lets the harness be
 * chosen for it again.
 */
export function withSettingsInUse(config: SessionConfig, saved: SavedSession): SessionConfig {
  const inUse = settingsInUse(saved);
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
