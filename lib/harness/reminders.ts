import { currentTodos } from "../tools/todo_write.ts";
import type { ToolContext } from "../tools/capability.ts";
import { TODO_WATCH_KEY } from "../tools/session_state.ts";
import { HarnessError } from "../errors.ts";
import { checkPromptTemplate } from "./prompt.ts";
import type { HarnessSpec } from "./spec_schema.ts";
import type { Harness, Reminder } from "./types.ts";

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
  const reminder = h.reminders.find((r) => r.when === "todo_stale") as
    | Extract<Reminder, { when: "todo_stale" }>
    | undefined;
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

/** Reminders from the spec, their prompt variables checked like the system prompt's. */
export function loadReminders(
  entries: HarnessSpec["reminders"],
  at: (key: string) => string,
): Reminder[] {
  return entries.map((entry, i): Reminder => {
    checkPromptTemplate(entry.text, at(`reminders[${i}].text`));
    if (entry.when === "loop") {
      checkLoopReminder(entry, (key) => at(`reminders[${i}].${key}`));
      return { when: "loop", text: entry.text };
    }
    if (entry.after_calls === undefined) {
      throw new HarnessError(`${at(`reminders[${i}].after_calls`)}: missing`, {
        hint: "A todo_stale reminder needs after_calls: how many tool calls make the list stale",
      });
    }
    return { when: entry.when, afterCalls: entry.after_calls, text: entry.text };
  });
}

/** A loop reminder takes no after_calls (loop_guard_repeats counts) and fills only its fields. */
function checkLoopReminder(
  entry: HarnessSpec["reminders"][number],
  at: (key: string) => string,
): void {
  if (entry.after_calls !== undefined) {
    throw new HarnessError(`${at("after_calls")}: a loop reminder takes no after_calls`, {
      hint: "Remove after_calls; loop_guard_repeats in config.toml sets how many repeats count",
    });
  }
  const unknown = [...entry.text.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1])
    .find((name) => name !== "tool" && name !== "repeats");
  if (unknown) {
    throw new HarnessError(`${at("text")}: unknown placeholder {${unknown}}`, {
      hint: "A loop reminder can use {tool} and {repeats}",
    });
  }
}
