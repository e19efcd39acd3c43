/**
 * The harness's reminders as a link of the tool-hook chain: after a call, the todo-staleness
 * reminder (`when = "todo_stale"`) when the session's todo list has gone stale, and the goal-budget
 * reminder (`when = "goal_budget"`) when the session's goal nears or passes its budget.
 */
import { todoReminderAfterCall } from "../harness/reminder_texts.ts";
import type { HookTurn, ToolHook } from "../loop/tool_hooks.ts";
import { GOAL_STATE_KEY } from "../tools/goals.ts";

/** The reminders link for one turn (which it counts for a goal): a note after a result when due. */
export function remindersLink(turn: HookTurn): ToolHook {
  const goal = turn.state.has(GOAL_STATE_KEY) ? import("../tools/goals_run.ts") : undefined;
  // Counted at the turn's start, before any call of it can run.
  void goal?.then((m) => m.countGoalTurn(turn.state));
  return {
    name: "reminders",
    async after() {
      const texts = [todoReminderAfterCall(turn.harness, turn.state)];
      // The goal's code is loaded only in a session that has a goal.
      if (turn.state.has(GOAL_STATE_KEY)) {
        const { goalReminderAfterCall } = await (goal ?? import("../tools/goals_run.ts"));
        texts.push(goalReminderAfterCall(turn.harness, turn.state, turn.tokensUsed?.()));
      }
      const due = texts.filter((t): t is string => t !== undefined);
      return due.length ? { action: "append", text: due.join("\n\n") } : undefined;
    },
  };
}
