/**
 * The `checkpoint` records of a session file and the state they add up to. Three kinds, each
 * naming a turn by its id (which only grows within a session):
 *
 *   {"phase":"start","turn":3,"historyLength":12,"prompt":"fix the test","fingerprint":"<sha>"}
 *   {"phase":"end","turn":3,"files":{"a.txt":{"before":{"sha":…,"mode":420},"after":null}}}
 *   {"phase":"rewind","turn":3,"code":true,"conversation":true,"wrote":{"a.txt":{…}}}
 *
 * A file's state is `{sha, mode}` (content kept in the checkpoint folder), `{link}`, `{big,
 * stamp}` (too big to keep) or null (no file). A session file may be forged, so every record
 * is checked here and one that is malformed or names a path outside the workspace is dropped.
 */
import * as z from "zod";
import type { Block } from "../../model/message.ts";
import { sha256Hex } from "../../tools/_edit_history.ts";
import { badPath } from "./_restore_paths.ts";
import type { PathState } from "./_tree_snapshot.ts";

/** What one turn changed: each path's state before and after it. */
export type TurnChanges = Map<string, { before: PathState; after: PathState }>;

/** One turn's checkpoint. */
export interface TurnCheckpoint {
  id: number;
  /** How many messages the history held when the turn started. */
  historyLength: number;
  /** The first line of the prompt. */
  prompt: string;
  /** The SHA-256 of the prompt's blocks (`promptFingerprint`), to find it in the history. */
  fingerprint: string;
  /** What it changed; unset until it ended. */
  files?: TurnChanges;
  /** Why `files` may not hold every change. */
  partial?: string;
}

/** What the records add up to. */
export interface CheckpointState {
  /** The turns still in the conversation, oldest first. */
  turns: TurnCheckpoint[];
  /** Each path's state as the agent (or a rewind) last left it. */
  left: Map<string, PathState>;
  nextId: number;
}

const fileStateSchema = z.union([
  z.strictObject({
    sha: z.string().regex(/^[0-9a-f]{64}$/),
    mode: z.number().int().min(0).max(0o777),
  }),
  z.strictObject({ link: z.string().min(1) }),
  z.strictObject({ big: z.number().int().min(0), stamp: z.string() }),
]);
const pathStateSchema = fileStateSchema.nullable();
const changeSchema = z.strictObject({ before: pathStateSchema, after: pathStateSchema });
const turnId = z.number().int().min(1);
const byPath = z.record(z.string(), z.unknown());

const recordSchema = z.discriminatedUnion("phase", [
  z.object({
    phase: z.literal("start"),
    turn: turnId,
    historyLength: z.number().int().min(0),
    prompt: z.string(),
    fingerprint: z.string(),
  }),
  z.object({
    phase: z.literal("end"),
    turn: turnId,
    files: byPath,
    partial: z.string().optional(),
  }),
  z.object({
    phase: z.literal("rewind"),
    turn: turnId,
    code: z.boolean(),
    conversation: z.boolean(),
    wrote: byPath,
  }),
]);

/** One checkpoint record, as written. */
export type CheckpointRecord = z.infer<typeof recordSchema>;

/** A state with no turns. */
export function emptyCheckpointState(): CheckpointState {
  return { turns: [], left: new Map(), nextId: 1 };
}

/** The checked record in `raw`, or why it is not one. */
export function parseRecord(raw: unknown): { record: CheckpointRecord } | { error: string } {
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "invalid" };
  const record = parsed.data;
  const paths = record.phase === "end"
    ? Object.entries(record.files).map(([path, v]) => [path, changeSchema.safeParse(v)] as const)
    : record.phase === "rewind"
    ? Object.entries(record.wrote).map(([path, v]) => [path, pathStateSchema.safeParse(v)] as const)
    : [];
  for (const [path, value] of paths) {
    const bad = badPath(path) ?? (value.success ? undefined : "its state is malformed");
    if (bad) return { error: `the path "${path}" is refused: ${bad}` };
  }
  return { record };
}

/** Adds `record` to `state`. */
export function applyRecord(state: CheckpointState, record: CheckpointRecord): void {
  state.nextId = Math.max(state.nextId, record.turn + 1);
  if (record.phase === "start") {
    const { turn: id, historyLength, prompt, fingerprint } = record;
    state.turns.push({ id, historyLength, prompt, fingerprint });
    return;
  }
  if (record.phase === "end") {
    const turn = state.turns.find((t) => t.id === record.turn);
    const files: TurnChanges = new Map(
      Object.entries(record.files) as Array<[string, { before: PathState; after: PathState }]>,
    );
    for (const [path, change] of files) state.left.set(path, change.after);
    if (turn) Object.assign(turn, { files, partial: record.partial });
    return;
  }
  if (record.code) {
    for (const [path, value] of Object.entries(record.wrote)) {
      state.left.set(path, value as PathState);
    }
  }
  if (record.conversation) state.turns = state.turns.filter((t) => t.id < record.turn);
}

/** The record that ends `turn`, with what it changed. */
export function endRecord(turn: TurnCheckpoint): CheckpointRecord {
  return {
    phase: "end",
    turn: turn.id,
    files: Object.fromEntries(turn.files ?? []),
    ...(turn.partial ? { partial: turn.partial } : {}),
  };
}

/**
 * The SHA-256 of a prompt's blocks without the harness's context blocks (which a harness
 * switch drops) and cache marks: the same for the prompt as given and as found in the history.
 */
export async function promptFingerprint(blocks: readonly Block[]): Promise<string> {
  const own = blocks
    .filter((b) => !(b.type === "text" && b.context))
    .map((b) => b.type === "text" ? { type: "text", text: b.text } : b);
  return await sha256Hex(new TextEncoder().encode(canonicalJson(own)));
}

/** The first non-blank line of a prompt's text, at most 120 characters; "(image)" for none. */
export function promptLine(blocks: readonly Block[]): string {
  for (const block of blocks) {
    if (block.type !== "text" || block.context) continue;
    const line = block.text.split("\n").map((l) => l.trim()).find(Boolean);
    if (line) return line.length > 120 ? `${line.slice(0, 119)}…` : line;
  }
  return blocks.some((b) => b.type === "image") ? "(image)" : "(empty prompt)";
}

/** JSON with object keys sorted, so that equal values give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
