/**
 * The kinds of loop the loop guard catches (`lib/hooks/loop_guard.ts`). A `[[reminders]]` entry
 * with `when = "loop"` answers one of them (`shape`, default `failing_call`).
 */
export const LOOP_SHAPES = [
  "failing_call",
  "format_error",
  "cycle",
  "same_read",
  "no_progress",
  "repeated_span",
] as const;

/** One kind of loop: see `LOOP_SHAPES`. */
export type LoopShape = typeof LOOP_SHAPES[number];
