/** Saved sessions: one append-only JSONL file each, read back into the history to resume. */
export { SessionError } from "./errors.ts";
export {
  SESSION_FORMAT_VERSION,
  type SessionHeader,
  type SessionOrigin,
  type SessionRecord,
  type SessionRecordInput,
  type SessionRecordType,
} from "./records.ts";
export { INTERRUPTED_RESULT, type ReplayedHistory, replayHistory } from "./history.ts";
export { type ForkedSession, type ForkOptions, forkSession, userTurns } from "./fork.ts";
export {
  type FindOptions,
  findSessionFile,
  findSessions,
  isIdPrefix,
  isPathRef,
  PROMPT_PREVIEW,
  readSessionByRef,
  sessionsByIdPrefix,
  type SessionSummary,
  sessionSummary,
} from "./list.ts";
export { checkSessionName, readSessionNames, sessionNamesFile, setSessionName } from "./names.ts";
export { readSession, type SavedSession } from "./read.ts";
export {
  checkpointsDir,
  createSession,
  reopenForAppend,
  sessionFilePath,
  type SessionHeaderInput,
  sessionsRoot,
  SessionWriter,
  type WriterOptions,
} from "./store.ts";
export { isSessionId, uuidV7, uuidV7Time } from "./uuid.ts";
