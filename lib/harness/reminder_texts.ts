import { currentTodos } from "../tools/todo_write.ts";
import type { ToolContext } from "../tools/capability.ts";
import { TODO_WATCH_KEY } from "../tools/session_state.ts";
import { HarnessError } from "../errors.ts";
import { checkPromptTemplate } from "./prompt.ts";
import type { LoopShape } from "./loop_shape_names.ts";
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
  checkOneLoopReminderPerShape(entries, at);
  return entries.map((entry, i): Reminder => {
    checkPromptTemplate(entry.text, at(`reminders[${i}].text`));
    if (entry.when === "loop") {
      checkLoopReminder(entry, (key) => at(`reminders[${i}].${key}`));
      return { when: "loop", shape: entry.shape ?? "failing_call", text: entry.text };
    }
    if (entry.shape !== undefined) {
      throw new HarnessError(`${at(`reminders[${i}].shape`)}: only a loop reminder has a shape`, {
        hint: 'Remove shape, or set when = "loop"',
      });
    }
    if (entry.when === "goal_budget") {
      checkGoalReminder(entry.text, entry.after_calls, (key) => at(`reminders[${i}].${key}`));
      return { when: "goal_budget", text: entry.text };
    }
    if (entry.after_calls === undefined) {
      throw new HarnessError(`${at(`reminders[${i}].after_calls`)}: missing`, {
        hint: "A todo_stale reminder needs after_calls: how many tool calls make the list stale",
      });
    }
    return { when: entry.when, afterCalls: entry.after_calls, text: entry.text };
  });
}

/** A goal_budget reminder takes no after_calls and fills only the goal's figures. */
function checkGoalReminder(text: string, afterCalls: unknown, at: (key: string) => string): void {
  const unknown = [...text.matchAll(/\{([a-z_]+)\}/g)].find((m) => !GOAL_FIELDS.includes(m[1]));
  if (afterCalls === undefined && !unknown) return;
  const what = unknown ? `${at("text")}: unknown placeholder ${unknown[0]}` : at("after_calls");
  throw new HarnessError(`${what} in a goal_budget reminder`, {
    hint:
      "It comes at 80% of the budget and once spent; use {objective} {used} {budget} {remaining}",
  });
}

const GOAL_FIELDS = ["objective", "used", "budget", "remaining"];

/** A loop reminder takes no after_calls (`[loop_guard]` counts) and fills only its fields. */
function checkLoopReminder(
  entry: HarnessSpec["reminders"][number],
  at: (key: string) => string,
): void {
  if (entry.after_calls !== undefined) {
    throw new HarnessError(`${at("after_calls")}: a loop reminder takes no after_calls`, {
      hint: "Remove after_calls; the [loop_guard] table in config.toml sets how many repeats count",
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

/** Two loop reminders for one shape would leave one of them unused. */
function checkOneLoopReminderPerShape(
  entries: HarnessSpec["reminders"],
  at: (key: string) => string,
): void {
  const seen = new Set<LoopShape>();
  for (const [i, entry] of entries.entries()) {
    if (entry.when !== "loop") continue;
    const shape = entry.shape ?? "failing_call";
    if (seen.has(shape)) {
      throw new HarnessError(`${at(`reminders[${i}]`)}: a second loop reminder for ${shape}`, {
        hint: 'Keep one [[reminders]] entry with when = "loop" for each shape',
      });
    }
    seen.add(shape);
  }
}

/** Our words for a loop the harness has no reminder of its own for. */
const DEFAULT_LOOP_TEXTS: Record<LoopShape, string> = {
  failing_call: "You have made the same {tool} call {repeats} times and it failed the same way " +
    "each time. Read the error, then try a different approach instead of repeating it.",
  format_error: "Your last {repeats} replies could not be used, each for the reason above. " +
    "Answer in the required format exactly.",
  cycle: "You have gone through the same calls ({tool}) {repeats} times over and got the same " +
    "results each time. Use what they returned and take a different next step.",
  same_read: "You have made the same {tool} call {repeats} times in a row and got the same " +
    "result each time. Nothing has changed: use the result you have instead of asking again.",
  no_progress: "Your last {repeats} steps only repeated calls you had already made, with the " +
    "same results. Read, edit or run something new, or finish with what you have.",
  repeated_span: "Your previous reply was cut off because it repeated the same text {repeats} " +
    "times in a row. Do not repeat it: continue the task with a different next step.",
};

/** The harness's loop reminder for `shape` (else ours), with `{tool}` and `{repeats}` filled in. */
export function loopReminderText(
  harness: Pick<Harness, "reminders">,
  shape: LoopShape,
  fill: { tool: string; repeats: number },
): string {
  const own = harness.reminders.find((r) => r.when === "loop" && r.shape === shape)?.text;
  return (own ?? DEFAULT_LOOP_TEXTS[shape]).replaceAll("{tool}", fill.tool)
    .replaceAll("{repeats}", String(fill.repeats));
}
