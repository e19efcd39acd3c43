/** What `/undo` and `/rewind` see of a session's checkpoints (checkpoints.ts keeps them). */

/** One turn one can go back to: the state before it. */
export interface CheckpointTurn {
  /** Its position in `CheckpointList.turns`, from 1: what `rewind()` takes. */
  turn: number;
  /** The first line of its prompt. */
  prompt: string;
  /** The workspace files it changed, relative to the working directory, sorted. */
  files: string[];
  /** Why its file changes are not known in full (the session stopped during it, say). */
  partial?: string;
  /** Why the conversation cannot go back to it (it was compacted since); unset when it can. */
  noConversation?: string;
}

/** The turns of a session, oldest first, and what limits them. */
export interface CheckpointList {
  turns: CheckpointTurn[];
  /** One sentence each: what a checkpoint cannot bring back here (not a git repository, say). */
  notes: string[];
}

/** What a rewind restores: the files, the conversation, or both. */
export interface RewindChoice {
  code: boolean;
  conversation: boolean;
}

/**
 * Asked before files changed since the agent left them are overwritten: true overwrites them,
 * false leaves them as they are (the other files are still restored).
 */
export type ConfirmOverwrite = (files: string[]) => Promise<boolean>;

/**
 * Asked before files are restored while background jobs or the interactive terminal of the
 * session run (`running` names each): true stops them all and restores, false restores nothing.
 * Without it (exec, ACP) a restore is refused while any runs.
 */
export type StopRunning = (running: string[]) => Promise<boolean>;

/** What runs beside the session and could change the workspace during a restore. */
export interface RunningWork {
  /** One line each: `background job b1c2d3e4: npm run dev`. */
  list(): Promise<string[]>;
  /** Stops every one of them and waits until they are gone. */
  stop(): Promise<void>;
}

/** What a rewind did. Paths are relative to the working directory. */
export interface RewindResult {
  /** The turn gone back to (its prompt's first line). */
  prompt: string;
  /** Files written back to their earlier content. */
  restored: string[];
  /** Files removed because they did not exist then. */
  removed: string[];
  /** Files changed since the agent left them, kept because the user said no. */
  kept: string[];
  /** Files that could not be restored, each with why. */
  failed: Array<{ path: string; why: string }>;
  /** Turns taken out of the conversation (0 when only the code was restored). */
  turnsRemoved: number;
  /** Why no OS sandbox confined the files' writes to the workspace; unset when one did. */
  unconfined?: string;
}
