/** `max_turns`, Claude Code's name for `max_turn_steps` (loaded only when it is set). */
import type { MergeState } from "./effective.ts";

/**
 * Reads a merged `max_turns` as `max_turn_steps` (which wins when both are set), with one warning
 * naming the key to use.
 */
export function readMaxTurnsAlias(state: MergeState, warnings: string[]): void {
  const values = state.values;
  if (values.max_turns === undefined) return;
  const origin = state.origins.get("max_turns");
  if (values.max_turn_steps === undefined) {
    values.max_turn_steps = values.max_turns;
    if (origin) state.origins.set("max_turn_steps", origin);
  }
  delete values.max_turns;
  state.origins.delete("max_turns");
  warnings.push(
    '"max_turns" is read as max_turn_steps (the model requests one turn may make): ' +
      "rename it to max_turn_steps",
  );
}
