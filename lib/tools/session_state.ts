/**
 * Saving and restoring `ToolContext.state`. The snapshot format, version 1:
 *
 *   {"version":1,"values":{"todos":[...],"fs.read.records":{"/abs/path":{...}},...}}
 *
 * Only the keys in `STATE_KEYS` are saved, each checked by its schema; anything else in `state`
 * (a text protocol's hand-shake within one turn, running things of a context without
 * `resources`) is left out. A change to a value's shape bumps `TOOL_STATE_VERSION` and adds a
 * migration to `restoreState`.
 */
import * as z from "zod";
import {
  cappedEditHistory,
  EDIT_HISTORY_KEY,
  editHistorySchema,
  restorableEditHistory,
  type UndoWorkspace,
} from "./_edit_history.ts";
import { READ_RECORDS_KEY, readRecordSchema } from "./_read_records.ts";
import { TODO_STATE_KEY, todoItemSchema } from "./todo_write.ts";
import { PLAN_STATE_KEY, planStep } from "./update_plan.ts";
import { GOAL_STATE_KEY, goalSchema } from "./goals.ts";
import { TIMERS_STATE_KEY, timerSchema } from "./schedule.ts";

/** The snapshot version this build writes, and the newest it restores. */
export const TOOL_STATE_VERSION = 1;

/** The deferred tool names loaded this session, in load order (lib/harness/deferred.ts). */
export const LOADED_TOOLS_KEY = "harness.loaded_tools";
/** Tool calls since the todo list last changed, and the list then (lib/harness/reminder_texts.ts). */
export const TODO_WATCH_KEY = "harness.todo_watch";

/** Most undo-history content a snapshot keeps, in characters; older edits are dropped. */
export const UNDO_SNAPSHOT_CHARS = 1 << 20;

/** A saved `ToolContext.state`: plain JSON. */
export type ToolStateSnapshot = { version: number; values: Record<string, unknown> };

/** Options of `restoreState`. */
export interface RestoreOptions {
  /** Told, one sentence each, what was dropped. */
  note?: (message: string) => void;
  /** Where the snapshot was read, as notes name it: `session "x.jsonl", line 7`. */
  from?: string;
  /** The workspace restored undo edits must stay in; without it the undo history is dropped. */
  workspace?: UndoWorkspace;
}

interface StateKey {
  schema: z.ZodType;
  /** What is saved of the live value; the value itself by default. */
  save?: (value: never) => unknown;
  /** The value to restore from a saved one, checked further than `schema` (untrusted input). */
  restore?: (saved: unknown, opts: RestoreOptions, note: (message: string) => void) => unknown;
}

/** Every key of `ToolContext.state` that outlives the process, with the shape of its value. */
const STATE_KEYS: Record<string, StateKey> = {
  [TODO_STATE_KEY]: { schema: z.array(todoItemSchema) },
  [PLAN_STATE_KEY]: { schema: z.array(planStep) },
  [LOADED_TOOLS_KEY]: { schema: z.array(z.string()) },
  [GOAL_STATE_KEY]: { schema: goalSchema },
  [TIMERS_STATE_KEY]: { schema: z.array(timerSchema) },
  [TODO_WATCH_KEY]: {
    schema: z.object({ callsSince: z.number().int().min(0), lastList: z.string() }),
  },
  [READ_RECORDS_KEY]: { schema: z.record(z.string(), readRecordSchema) },
  [EDIT_HISTORY_KEY]: {
    schema: editHistorySchema,
    save: (history: z.infer<typeof editHistorySchema>) =>
      cappedEditHistory(history, UNDO_SNAPSHOT_CHARS),
    // A session file given by path may be forged: undo must not reach outside the workspace.
    restore: (saved, { workspace }, note) => {
      if (workspace) return restorableEditHistory(saved, workspace, note);
      note("Dropped the saved undo history: there is no workspace to check its paths against");
      return {};
    },
  },
};

/**
 * The saved form of `state`: a deep copy, JSON through and through. A declared key whose value
 * does not fit its schema is a bug in the tool that wrote it, so it throws a TypeError.
 */
export function snapshotState(state: ReadonlyMap<string, unknown>): ToolStateSnapshot {
  const values: Record<string, unknown> = {};
  for (const [key, value] of state) {
    if (!Object.hasOwn(STATE_KEYS, key) || value === undefined) continue;
    const { schema, save } = STATE_KEYS[key];
    const live = save ? save(value as never) : value;
    if (!isPlainJson(live)) {
      throw new TypeError(`Tool state "${key}" is not plain JSON (a Map, a class, a function?)`);
    }
    const saved = JSON.parse(JSON.stringify(live));
    const checked = schema.safeParse(saved);
    if (!checked.success) {
      throw new TypeError(`Tool state "${key}" does not fit its schema: ${firstIssue(checked)}`);
    }
    values[key] = saved;
  }
  return { version: TOOL_STATE_VERSION, values };
}

/**
 * A fresh `ToolContext.state` from a snapshot, which is untrusted input (a session file can be
 * edited or forged). Whatever cannot be used (a newer version, a key this build does not know, a
 * value of the wrong shape, undo edits outside `opts.workspace`) is dropped and described to
 * `opts.note`.
 */
export function restoreState(snapshot: unknown, opts: RestoreOptions = {}): Map<string, unknown> {
  const note = (message: string) => opts.note?.(opts.from ? `${message} (${opts.from})` : message);
  const state = new Map<string, unknown>();
  const parsed = snapshotSchema.safeParse(snapshot);
  if (!parsed.success) {
    note(`Cannot restore the saved tool state: ${firstIssue(parsed)}; starting without it`);
    return state;
  }
  const { version, values } = parsed.data;
  if (version > TOOL_STATE_VERSION) {
    note(
      `Cannot restore the saved tool state: it has version ${version}, and this interpreter ` +
        `reads up to ${TOOL_STATE_VERSION}; starting without it`,
    );
    return state;
  }
  for (const [key, value] of Object.entries(values)) {
    if (!Object.hasOwn(STATE_KEYS, key)) {
      note(`Dropped the saved tool state "${key}": this interpreter does not use it`);
      continue;
    }
    const { schema, restore } = STATE_KEYS[key];
    if (restore) {
      const restored = restore(value, opts, note);
      if (restored !== undefined) state.set(key, restored);
      continue;
    }
    const checked = schema.safeParse(value);
    if (checked.success) state.set(key, checked.data);
    else note(`Dropped the saved tool state "${key}": ${firstIssue(checked)}`);
  }
  return state;
}

/** True for what JSON keeps exactly: null, booleans, finite numbers, strings, arrays, plain objects. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((v) => v === undefined || isPlainJson(v));
}

const snapshotSchema = z.object({
  version: z.number().int().min(1),
  values: z.record(z.string(), z.unknown()),
});

function firstIssue(result: { error?: z.ZodError }): string {
  const issue = result.error?.issues[0];
  if (!issue) return "invalid";
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}
