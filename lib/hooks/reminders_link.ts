/**
 * The harness's reminders as a link of the tool-hook chain: after a call, the todo-staleness
 * reminder (`when = "todo_stale"`) when the session's todo list has gone stale.
 */
import { todoReminderAfterCall } from "../harness/reminder_texts.ts";
import type { HookTurn, ToolHook } from "../loop/tool_hooks.ts";

/** The reminders link for one turn: a note after the result when one is due. */
export function remindersLink(turn: HookTurn): ToolHook {
  return {
    name: "reminders",
    after() {
      const text = todoReminderAfterCall(turn.harness, turn.state);
      return Promise.resolve(text ? { action: "append", text } : undefined);
    },
  };
}
