import { currentTodos } from "../tools/todo_write.ts";
import type { ToolContext } from "../tools/capability.ts";
import { TODO_WATCH_KEY } from "../tools/session_state.ts";
import type { Harness } from "./types.ts";

interface TodoWatch {
  callsSince: number;
  lastList: string;
}

/**
 * Counts one finished tool call and returns the harness's todo-staleness reminder when the
 * session's todo list has open items and has not changed for `afterCalls` calls. The count
 * starts again after each reminder, so it is repeated at most every `afterCalls` calls.
 */
export function todoReminderAfterCall(h: Harness, state: ToolContext["state"]): string | undefined {
  const reminder = h.reminders.find((r) => r.when === "todo_stale");
  if (!reminder) return undefined;
  const todos = currentTodos({ state });
  const list = JSON.stringify(todos);
  const watch = (state.get(TODO_WATCH_KEY) as TodoWatch | undefined) ??
    { callsSince: 0, lastList: list };
  watch.callsSince = list === watch.lastList ? watch.callsSince + 1 : 0;
  watch.lastList = list;
  state.set(TODO_WATCH_KEY, watch);
  const open = todos.some((t) => t.status === "pending" || t.status === "in_progress");
  if (!open || watch.callsSince < reminder.afterCalls) return undefined;
  watch.callsSince = 0;
  return reminder.text;
}
