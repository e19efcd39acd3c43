/**
 * Keeps a session's file in step with its history: every message the loop appends is written as
 * it happens, in order, together with approvals and switches. Nothing here blocks the loop; each
 * prompt ends with `flush()`, which waits for the writes.
 */
import type { ApprovalAnswer } from "../approval/hook.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import { addUsage, type Message } from "../model/message.ts";
import { UserError } from "../errors.ts";
import {
  createSession,
  type ForkedSession,
  forkSession,
  reopenForAppend,
  type SavedSession,
  type SessionOrigin,
  type SessionRecordInput,
  SessionWriter,
  uuidV7,
} from "../store/mod.ts";
import type { AgentSession } from "./agent_session.ts";

/** Where a resumed session's tool state comes from: its file and line, and its workspace. */
export interface ResumedFrom {
  file: string;
  line?: number;
  cwd: string;
}

/** Records one session; without a writer it records nothing (an ephemeral session). */
export class SessionRecorder {
  /** The session's id: its file's, the resumed session's, or a fresh one when nothing is saved. */
  readonly id: string;
  readonly #writer: SessionWriter | undefined;
  readonly #state: LoopState;
  /** The history as the file holds it: the very message objects written, in order. */
  #written: Message[];
  #failure: Error | undefined;
  /** For a resumed session, the harness its history was made with. */
  readonly resumedHarness: string | undefined;
  /** For a resumed session, its last saved tool state (todos, loaded tools, read records). */
  readonly resumedToolState: Record<string, unknown> | undefined;
  /** For a resumed session, where the tool state was read and the workspace it was made in. */
  readonly resumedFrom: ResumedFrom | undefined;
  /** For a resumed session, whether it stopped in plan mode. */
  readonly resumedPlanMode: boolean;

  constructor(
    writer: SessionWriter | undefined,
    state: LoopState,
    resumed: {
      id?: string;
      harness?: string;
      toolState?: Record<string, unknown>;
      from?: ResumedFrom;
      planMode?: boolean;
    } = {},
  ) {
    this.id = writer?.id ?? resumed.id ?? uuidV7();
    this.#writer = writer;
    this.#state = state;
    this.#written = [...state.messages];
    this.resumedHarness = resumed.harness;
    this.resumedToolState = resumed.toolState;
    this.resumedFrom = resumed.from;
    this.resumedPlanMode = resumed.planMode ?? false;
  }

  /** The id of the session file written to; undefined when nothing is saved. */
  get savedId(): string | undefined {
    return this.#writer?.id;
  }

  get file(): string | undefined {
    return this.#writer?.file;
  }

  /**
   * Brings the file in step with the history: the messages it gained are appended; any other
   * change (a harness switch's translation, a rewind, dropped reasoning) is written as one
   * `history` record that replaces what came before, so that a resume continues from exactly
   * the history the session had.
   */
  syncMessages(): void {
    const messages = this.#state.messages;
    const written = this.#written;
    const kept = written.length <= messages.length && written.every((m, i) => messages[i] === m);
    if (!kept) {
      this.append({ type: "history", messages: [...messages] });
    } else {
      for (let i = written.length; i < messages.length; i++) {
        this.append(messageEvent(messages[i]));
      }
    }
    this.#written = [...messages];
  }

  /** Records that the history was replaced by `messages` (a compaction). */
  compacted(messages: Message[], tokensBefore: number): void {
    this.append({ type: "compaction", messages, tokensBefore });
    this.#written = [...this.#state.messages];
  }

  append(event: SessionRecordInput): void {
    if (!this.#writer || this.#failure) return;
    this.#writer.append(event).catch((error: Error) => this.#failure ??= error);
  }

  /**
   * A copy of the session as written so far (up to the end of user turn `turn`) in a new session
   * file under `home`; this one is only read.
   */
  async fork(home: string, turn?: number): Promise<ForkedSession> {
    if (!this.file) throw new UserError("This session is not saved, so there is nothing to fork");
    await this.flush();
    return await forkSession(home, this.file, { turn });
  }

  /** Waits for every write; throws the first write failure, once. */
  async flush(): Promise<void> {
    this.syncMessages();
    await this.#writer?.flush().catch((error: Error) => this.#failure ??= error);
    const failure = this.#failure;
    if (failure) {
      this.#failure = undefined;
      throw failure;
    }
  }

  async close(): Promise<void> {
    this.syncMessages();
    await this.#writer?.close().catch(() => {});
  }
}

function messageEvent(message: Message): SessionRecordInput {
  switch (message.role) {
    case "user":
      return { type: "user_message", message };
    case "assistant":
      return { type: "assistant_message", message };
    case "tool_result":
      return { type: "tool_result", message };
  }
}

/** What `openRecorder()` needs besides the agent and the history. */
export interface RecorderOptions {
  cwd: string;
  /** Recorded in a new file's header. */
  origin: SessionOrigin;
  /** The saved session to continue. */
  saved?: SavedSession;
  /** Save nothing. */
  ephemeral?: boolean;
  /** Told about what reading or reopening the file found. */
  warn(message: string): void;
}

/**
 * The session's file: the resumed one (its history restored into `state`), a new one, or none
 * for an ephemeral session.
 */
export async function openRecorder(
  agent: AgentSession,
  state: LoopState,
  opts: RecorderOptions,
): Promise<SessionRecorder> {
  const home = agent.config.home;
  const { saved } = opts;
  if (saved) {
    for (const note of saved.notes) opts.warn(note);
    state.messages.push(...saved.history);
    // Usage counts the whole conversation, as the Codex SDK's turn.completed reports it.
    for (const m of saved.history) if (m.role === "assistant") addUsage(state.usage, m.usage);
    const harness = saved.events.findLast((e) => e.type === "harness_switch")?.harness ??
      saved.header.harness;
    const from = { file: saved.file, line: saved.toolStateLine, cwd: saved.header.cwd };
    const planMode = saved.events.findLast((e) => e.type === "settings")?.planMode === true;
    const resumed = { id: saved.header.id, harness, toolState: saved.toolState, from, planMode };
    if (opts.ephemeral) return new SessionRecorder(undefined, state, resumed);
    const writer = await reopenForAppend(saved.file);
    for (const note of writer.notes) opts.warn(note);
    return new SessionRecorder(writer, state, resumed);
  }
  if (opts.ephemeral) return new SessionRecorder(undefined, state);
  const { values } = agent.config;
  const writer = await createSession(home, {
    cwd: opts.cwd,
    model: agent.model,
    provider: agent.settings.id,
    harness: agent.harness.id,
    sandbox: values.sandbox_mode,
    approval: values.approval_policy,
    ...(values.model_reasoning_effort ? { reasoningEffort: values.model_reasoning_effort } : {}),
    origin: opts.origin,
  });
  return new SessionRecorder(writer, state);
}

/** The session-file event for an approval answer. */
export function approvalEvent(callId: string | undefined, answer: ApprovalAnswer, note?: string) {
  const decision = answer === "once"
    ? "approved" as const
    : answer === "session"
    ? "approved_for_session" as const
    : "denied" as const;
  return { type: "approval" as const, callId: callId ?? "", decision, ...(note ? { note } : {}) };
}
