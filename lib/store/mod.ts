/** Saved sessions: one append-only JSONL file each, read back into the history to resume. */
export { SessionError } from "./errors.ts";
export { type SessionOrigin, type SessionRecord, type SessionRecordInput } from "./records.ts";
export { type ForkedSession, forkSession, userTurns } from "./fork.ts";
export {
  findSessionFile,
  findSessions,
  isIdPrefix,
  isPathRef,
  sessionsByIdPrefix,
  type SessionSummary,
  sessionSummary,
} from "./list.ts";
export { readSessionNames, setSessionName } from "./names.ts";
export { readSession, type SavedSession } from "./read.ts";
export {
  checkpointsDir,
  createSession,
  reopenForAppend,
  sessionsRoot,
  SessionWriter,
} from "./store.ts";
export { isSessionId, uuidV7 } from "./uuid.ts";
