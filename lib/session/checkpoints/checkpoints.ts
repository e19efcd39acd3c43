/**
 * Checkpoints for `/undo` and `/rewind`. Each turn is a checkpoint: at its start and end the
 * workspace's files are snapshotted (_tree_snapshot.ts; contents kept in a folder beside the
 * session file), what the turn changed is written to the session file as a `checkpoint` record
 * (_checkpoint_records.ts), with the history's length and the prompt. The edit tool's undo
 * history fills in files the snapshot does not cover (ignored files, a folder too big).
 *
 * Going back to before a turn restores the files that turn and the later ones changed, and/or
 * cuts the conversation at that turn's prompt. A file whose content is no longer what the agent
 * left is the user's change: it is overwritten only when the user says so.
 */
import { normalize, relative } from "node:path";
import { UserError } from "../../errors.ts";
import type { LoopState } from "../../loop/agent_loop.ts";
import type { Block, Message } from "../../model/message.ts";
import { checkpointsDir, readSession, type SessionRecordInput } from "../../store/mod.ts";
import { EDIT_HISTORY_KEY, type EditHistory, sha256Hex } from "../../tools/_edit_history.ts";
import { type BlobStore, blobStore } from "./_checkpoint_blobs.ts";
import {
  applyRecord,
  type CheckpointRecord,
  type CheckpointState,
  emptyCheckpointState,
  endRecord,
  parseRecord,
  promptFingerprint,
  promptLine,
  type TurnChanges,
  type TurnCheckpoint,
} from "./_checkpoint_records.ts";
import { badPath } from "./_restore_paths.ts";
import type { OpenRestoreWriter } from "./_restore_writer.ts";
import { quiesce, runningWorkOf } from "../_running_work.ts";
import {
  changesBetween,
  type PathState,
  sameState,
  type Snapshot,
  stateNow,
  takeSnapshot,
} from "./_tree_snapshot.ts";
import { type ListingSources, listWorkspaceFiles } from "./_workspace_listing.ts";
import type { SessionParts } from "../session_parts.ts";
import type {
  CheckpointList,
  ConfirmOverwrite,
  RewindChoice,
  RewindResult,
  RunningWork,
  StopRunning,
} from "./checkpoint_types.ts";

/** What checkpoints work with. */
export interface CheckpointDeps {
  /** The working directory: the workspace whose files are checkpointed. */
  cwd: string;
  /** The conversation, which a rewind cuts. */
  loop: LoopState;
  /** The tools' session data, which holds the edit tool's undo history. */
  toolState: Map<string, unknown>;
  /** The session file: its records, and where it is (checkpoint contents go beside it). */
  recorder: {
    readonly file: string | undefined;
    readonly resumedFrom?: { file: string } | undefined;
    append(event: SessionRecordInput): void;
    flush(): Promise<void>;
  };
  /** The repository and safe git, to list the files. */
  sources: ListingSources;
  warn(message: string): void;
  /** Opens what writes a restore's files (the sandboxed file helper of `_restore_writer.ts`). */
  openWriter: OpenRestoreWriter;
  /** The background jobs and terminal, stopped (or the restore refused) before files are restored. */
  running: RunningWork;
  /** Why this session keeps no checkpoints at all; unset when it keeps them. */
  off?: string;
}

/** The turn running now: its checkpoint, the snapshot before it, its undo-history lengths. */
interface OpenTurn {
  turn: TurnCheckpoint;
  before: Snapshot;
  edits: Map<string, number>;
}

/** A session's checkpoints (see the module comment). Dispose it to remove temporary contents. */
export class Checkpoints implements AsyncDisposable {
  readonly #deps: CheckpointDeps;
  #state: CheckpointState = emptyCheckpointState();
  #loaded: Promise<void> | undefined;
  #blobs: Promise<BlobStore> | undefined;
  #temp: string | undefined;
  #latest: Snapshot | undefined;
  #open: OpenTurn | undefined;
  readonly #notes = new Set<string>();
  /** Each user message's `promptFingerprint`, worked out once. */
  readonly #fingerprints = new WeakMap<Message, Promise<string | undefined>>();

  constructor(deps: CheckpointDeps) {
    this.#deps = deps;
  }

  /** Snapshots the files before a turn with prompt `blocks`; never throws (it warns). */
  async begin(blocks: Block[]): Promise<void> {
    this.#open = undefined;
    if (this.#deps.off) return;
    try {
      await this.#load();
      const before = await this.#snapshot();
      const { loop } = this.#deps;
      const turn: TurnCheckpoint = {
        id: this.#state.nextId++,
        historyLength: loop.messages.length,
        prompt: promptLine(blocks),
        fingerprint: await promptFingerprint(blocks),
      };
      this.#state.turns.push(turn);
      const { id, historyLength, prompt, fingerprint } = turn;
      this.#record({ phase: "start", turn: id, historyLength, prompt, fingerprint });
      this.#open = { turn, before, edits: this.#editCounts() };
    } catch (error) {
      this.#deps.warn(`Cannot checkpoint this turn: ${(error as Error).message}`);
    }
  }

  /** Records what the turn begun last changed; never throws (it warns). */
  async end(): Promise<void> {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    try {
      const after = await this.#snapshot(open.before);
      const files = changesBetween(open.before, after);
      await this.#addToolEdits(files, open, after);
      const unkept = [...files.keys()].filter((path) => badPath(path));
      for (const path of unkept) files.delete(path);
      const protectedNote = `a restore never writes protected paths: ${unkept.join(", ")}`;
      open.turn.files = files;
      open.turn.partial = open.before.partial ?? after.partial ??
        (unkept.length ? protectedNote : undefined);
    } catch (error) {
      open.turn.files ??= new Map();
      open.turn.partial = `its changes could not be read: ${(error as Error).message}`;
      this.#deps.warn(`Cannot checkpoint this turn's changes: ${(error as Error).message}`);
    }
    for (const [path, change] of open.turn.files) this.#state.left.set(path, change.after);
    this.#record(endRecord(open.turn));
    await this.#flush();
  }

  /** The turns one can go back to, oldest first. */
  async list(): Promise<CheckpointList> {
    if (this.#deps.off) {
      return { turns: [], notes: [`This session keeps no checkpoints: ${this.#deps.off}`] };
    }
    await this.#load();
    const turns = await Promise.all(this.#state.turns.map(async (t, i) => ({
      turn: i + 1,
      prompt: t.prompt,
      files: [...(t.files?.keys() ?? [])].sort(),
      ...(t.files ? (t.partial ? { partial: t.partial } : {}) : { partial: STOPPED }),
      ...(await this.#cutPoint(t) === undefined ? { noConversation: CHANGED } : {}),
    })));
    return { turns, notes: [...this.#notes] };
  }

  /**
   * Goes back to before turn `turn` (from 1, as `list()` numbers them). Files are restored only
   * once nothing else runs in the session: `stop` is asked to stop it, and without it the
   * restore is refused.
   */
  async rewind(
    turn: number,
    choice: RewindChoice,
    confirm: ConfirmOverwrite,
    stop?: StopRunning,
  ): Promise<RewindResult> {
    if (this.#deps.off) throw new UserError(`This session keeps no checkpoints: ${this.#deps.off}`);
    await this.#load();
    const turns = this.#state.turns;
    const target = turns[turn - 1];
    if (!target) {
      throw new UserError(`There is no turn ${turn} to go back to`, {
        hint: turns.length ? `Pick one of 1 to ${turns.length} (/rewind lists them)` : undefined,
      });
    }
    const cut = choice.conversation ? await this.#cutPoint(target) : 0;
    if (cut === undefined) {
      throw new UserError(`Cannot take turn ${turn} out of the conversation: ${CHANGED}`, {
        hint: "Restore its code only (/rewind, then code)",
      });
    }
    if (choice.code) await quiesce(this.#deps.running, stop);
    const result: RewindResult = {
      prompt: target.prompt,
      restored: [],
      removed: [],
      kept: [],
      failed: [],
      turnsRemoved: 0,
    };
    const wrote = choice.code
      ? await this.#restoreCode(turns.slice(turn - 1), confirm, result)
      : {};
    if (choice.conversation) {
      result.turnsRemoved = turns.length - turn + 1;
      this.#deps.loop.messages.splice(cut);
      this.#state.turns = turns.slice(0, turn - 1);
    }
    const { code, conversation } = choice;
    this.#record({ phase: "rewind", turn: target.id, code, conversation, wrote });
    await this.#flush();
    return result;
  }

  /** Writes what is pending to the session file (the history after a cut, too). */
  async #flush(): Promise<void> {
    await this.#deps.recorder.flush().catch((error: Error) =>
      this.#deps.warn(`Cannot save the session: ${error.message}`)
    );
  }

  /** Undoes the last turn: its files and its place in the conversation (`stop` as for rewind). */
  async undo(confirm: ConfirmOverwrite, stop?: StopRunning): Promise<RewindResult> {
    if (this.#deps.off) throw new UserError(`This session keeps no checkpoints: ${this.#deps.off}`);
    await this.#load();
    const count = this.#state.turns.length;
    if (count === 0) throw new UserError("Nothing to undo: no turn has run in this conversation");
    return await this.rewind(count, { code: true, conversation: true }, confirm, stop);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#temp) await Deno.remove(this.#temp, { recursive: true }).catch(() => {});
  }

  /** Restores the files `turns` changed to their state before the first of them. */
  async #restoreCode(
    turns: TurnCheckpoint[],
    confirm: ConfirmOverwrite,
    result: RewindResult,
  ): Promise<Record<string, PathState>> {
    const earliest = new Map<string, PathState>();
    for (const turn of turns) {
      for (const [path, change] of turn.files ?? []) {
        if (!earliest.has(path)) earliest.set(path, change.before);
      }
    }
    const { cwd, openWriter } = this.#deps;
    const job = { cwd, blobs: await this.#store(), left: this.#state.left, openWriter, confirm };
    const { restoreStates } = await import("./_restore_files.ts");
    return await restoreStates(earliest, job, result);
  }

  /**
   * Where the conversation is cut to go back to before `turn`: its length then, when the
   * prompt is still there (a compaction replaces it), else the prompt's one place in it.
   */
  async #cutPoint(turn: TurnCheckpoint): Promise<number | undefined> {
    if (turn.historyLength === 0) return 0;
    const found: number[] = [];
    const messages = this.#deps.loop.messages;
    for (let i = 0; i < messages.length; i++) {
      if (await this.#fingerprintOf(messages[i]) === turn.fingerprint) found.push(i);
    }
    if (found.includes(turn.historyLength)) return turn.historyLength;
    return found.length === 1 ? found[0] : undefined;
  }

  /** A user message's `promptFingerprint`; undefined for other messages. */
  #fingerprintOf(message: Message): Promise<string | undefined> {
    let found = this.#fingerprints.get(message);
    if (!found) {
      found = message.role === "user"
        ? promptFingerprint(message.blocks)
        : Promise.resolve(undefined);
      this.#fingerprints.set(message, found);
    }
    return found;
  }

  async #snapshot(previous?: Snapshot): Promise<Snapshot> {
    const { cwd, sources } = this.#deps;
    const listing = await listWorkspaceFiles(cwd, sources);
    const snapshot = await takeSnapshot(cwd, listing, {
      blobs: await this.#store(),
      previous: previous ?? this.#latest,
    });
    this.#latest = snapshot;
    if (snapshot.partial) {
      this.#notes.add(
        `Not every file is checkpointed: ${snapshot.partial}; changes the edit tool made ` +
          "can still be restored",
      );
    }
    return snapshot;
  }

  /** How many edits the edit tool's undo history holds for each file. */
  #editCounts(): Map<string, number> {
    const history = this.#deps.toolState.get(EDIT_HISTORY_KEY) as EditHistory | undefined;
    return new Map(Object.entries(history ?? {}).map(([path, edits]) => [path, edits.length]));
  }

  /** Adds the files the edit tool changed in this turn that neither snapshot covers. */
  async #addToolEdits(files: TurnChanges, open: OpenTurn, after: Snapshot): Promise<void> {
    const history = this.#deps.toolState.get(EDIT_HISTORY_KEY) as EditHistory | undefined;
    const blobs = await this.#store();
    for (const [abs, edits] of Object.entries(history ?? {})) {
      const first = edits[open.edits.get(abs) ?? 0];
      const path = relative(this.#deps.cwd, abs);
      if (!first || badPath(path) || open.before.files.has(path) || after.files.has(path)) continue;
      const now = await stateNow(abs, blobs);
      let before: PathState = null;
      if (first.before !== null) {
        const bytes = new TextEncoder().encode(first.before);
        const sha = await sha256Hex(bytes);
        await blobs.put(sha, bytes);
        before = { sha, mode: now && "mode" in now ? now.mode : 0o644 };
      }
      if (!sameState(before, now)) files.set(path, { before, after: now });
    }
  }

  /** The contents' folder: beside the session file, or a temporary one for an ephemeral one. */
  #store(): Promise<BlobStore> {
    return this.#blobs ??= (async () => {
      const file = this.#deps.recorder.file;
      if (file) return blobStore(checkpointsDir(file));
      this.#temp = await Deno.makeTempDir({ prefix: "oi-checkpoints-" });
      return blobStore(this.#temp);
    })();
  }

  #record(record: CheckpointRecord): void {
    this.#deps.recorder.append({ type: "checkpoint", checkpoint: record });
  }

  /** For a resumed session, the checkpoints its file holds. */
  #load(): Promise<void> {
    return this.#loaded ??= (async () => {
      const { recorder, cwd } = this.#deps;
      const file = recorder.resumedFrom && recorder.file;
      if (!file) return;
      const saved = await readSession(file);
      if (normalize(saved.header.cwd) !== normalize(cwd)) {
        this.#notes.add(
          `The checkpoints of "${file}" are not used: they were made in "${saved.header.cwd}"`,
        );
        return;
      }
      const skipped: string[] = [];
      for (const event of saved.events) {
        if (event.type !== "checkpoint") continue;
        const parsed = parseRecord(event.checkpoint);
        if ("record" in parsed) applyRecord(this.#state, parsed.record);
        else skipped.push(parsed.error);
      }
      if (skipped.length) {
        this.#deps.warn(
          `Skipped ${skipped.length} checkpoint record${skipped.length === 1 ? "" : "s"} of ` +
            `"${file}": ${skipped[0]}`,
        );
      }
    })().catch((error: Error) => {
      this.#notes.add(`The saved checkpoints cannot be read: ${error.message}`);
    });
  }
}

const STOPPED = "the session stopped during this turn, so its file changes are not known";
const CHANGED = "its prompt is no longer in the conversation (it was compacted since)";

/**
 * The checkpoints of the session made of `parts`, warning through its events. Only the REPL's
 * sessions keep them (`/undo`, `/rewind`), not a review's: others would copy the workspace for
 * nothing.
 */
export function sessionCheckpoints(parts: SessionParts): Checkpoints {
  const { workspace } = parts.live.agent;
  const { origin, instructions } = parts.config;
  return new Checkpoints({
    off: origin !== "repl"
      ? "only REPL sessions keep them"
      : instructions
      ? "a session with its own instructions (a review) keeps none"
      : undefined,
    cwd: parts.config.cwd,
    loop: parts.state.loop,
    toolState: parts.state.toolState,
    recorder: parts.live.recorder,
    sources: { gitRoot: () => workspace.gitRoot(), repoGit: (args) => workspace.repoGit(args) },
    warn: (message) => parts.io.onEvent({ type: "warning", message }),
    openWriter: parts.live.agent.sandbox.restoreWriter,
    running: runningWorkOf(parts.live.resources),
  });
}
