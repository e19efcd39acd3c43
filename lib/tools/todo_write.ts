import * as z from "zod";
import { defineCapability, type ToolContext } from "./capability.ts";

/** Key of the session's todo list (a `TodoItem[]`) in `ToolContext.state`. */
export const TODO_STATE_KEY = "todos";

/** Status of a todo item after normalisation. */
export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";

/** One todo item as stored and returned. Optional fields are present only when given. */
export interface TodoItem {
  content: string;
  status: TodoStatus;
  priority?: "high" | "medium" | "low";
  id?: string;
  activeForm?: string;
}

/** A stored `TodoItem`, as `restoreState` checks it. */
export const todoItemSchema: z.ZodType<TodoItem> = z.object({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
  priority: z.enum(["high", "medium", "low"]).optional(),
  id: z.string().optional(),
  activeForm: z.string().optional(),
});

/** How many items have each status. */
export interface TodoCounts {
  total: number;
  pending: number;
  inProgress: number;
  completed: number;
  cancelled: number;
}

/**
 * One item as a model sends it. Accepts the union of vendor spellings, since a harness maps only
 * top-level arguments: the text as `content` (opencode, Claude, Qwen) or `title` (Kimi), and
 * status `done` (Kimi) as well as `completed`.
 */
const todoItemInput = z.object({
  content: z.string().min(1).optional().describe("What to do (opencode, Claude, Qwen spelling)"),
  title: z.string().min(1).optional().describe("What to do (Kimi spelling)"),
  status: z.enum(["pending", "in_progress", "completed", "cancelled", "done"]),
  priority: z.enum(["high", "medium", "low"]).optional(),
  id: z.string().optional(),
  activeForm: z.string().optional().describe("Present-tense label shown while in progress"),
}).refine((t) => t.content !== undefined || t.title !== undefined, {
  message: "each todo needs `content` or `title`",
});

/**
 * Input of `todo.write`. `todos` is the whole new list, replacing the previous one; when it is
 * absent (Kimi's `SetTodoList` with `todos: null`) the current list is returned unchanged.
 * Harness mapping: `todos = "todos"` for opencode `todowrite`, Claude `TodoWrite`, Qwen
 * `todo_write` and Kimi `SetTodoList`/`TodoList`.
 */
export const todoWriteInput = z.object({
  todos: z.array(todoItemInput).optional().describe("The whole todo list, in order"),
});

/**
 * Result of `todo.write` and `todo.read`. `json` is the list as pretty JSON (opencode's echo);
 * `checklist` has one `[status] content` line per item, the status spelled as the model wrote
 * it (Kimi reads `done`), or "" for an empty list.
 */
export interface TodoListOutput {
  todos: TodoItem[];
  /** The list before this call. */
  oldTodos: TodoItem[];
  counts: TodoCounts;
  json: string;
  checklist: string;
}

/** Replaces the session's todo list, or returns it when no list is given. */
export const todoWrite = defineCapability({
  id: "todo.write",
  input: todoWriteInput,
  mutates: false,
  run(input, ctx): Promise<TodoListOutput> {
    const old = currentTodos(ctx);
    if (input.todos === undefined) return Promise.resolve(listOutput(old, old));
    const todos = input.todos.map(normaliseItem);
    ctx.state.set(TODO_STATE_KEY, todos);
    const spelled = input.todos.map((t) => t.status);
    return Promise.resolve(listOutput(todos, old, spelled));
  },
});

/** Input of `todo.read`: no arguments (opencode's older `todoread`, zcode's `TodoRead`). */
const todoReadInput = z.object({});

/** Returns the session's todo list. */
export const todoRead = defineCapability({
  id: "todo.read",
  input: todoReadInput,
  mutates: false,
  run(_input, ctx): Promise<TodoListOutput> {
    const todos = currentTodos(ctx);
    return Promise.resolve(listOutput(todos, todos));
  },
});

/** The session's todo list; empty before the first `todo.write`. */
export function currentTodos(ctx: Pick<ToolContext, "state">): TodoItem[] {
  const list = ctx.state.get(TODO_STATE_KEY);
  return Array.isArray(list) ? list as TodoItem[] : [];
}

/** Counts items by status. */
function countTodos(todos: readonly TodoItem[]): TodoCounts {
  const count = (s: TodoStatus) => todos.filter((t) => t.status === s).length;
  return {
    total: todos.length,
    pending: count("pending"),
    inProgress: count("in_progress"),
    completed: count("completed"),
    cancelled: count("cancelled"),
  };
}

function normaliseItem(t: z.infer<typeof todoItemInput>): TodoItem {
  const item: TodoItem = {
    content: t.content ?? t.title!,
    status: t.status === "done" ? "completed" : t.status,
  };
  if (t.priority !== undefined) item.priority = t.priority;
  if (t.id !== undefined) item.id = t.id;
  if (t.activeForm !== undefined) item.activeForm = t.activeForm;
  return item;
}

function listOutput(todos: TodoItem[], old: TodoItem[], spelled?: string[]): TodoListOutput {
  return {
    todos,
    oldTodos: old,
    counts: countTodos(todos),
    json: JSON.stringify(todos, null, 2),
    checklist: todos.map((t, i) => `[${spelled?.[i] ?? t.status}] ${t.content}`).join("\n"),
  };
}
