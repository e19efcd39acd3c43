/** ATIF-v1.7 sub-agent runs embedded in their parent's trajectory (loaded only when there are some). */
import type { Trajectory } from "./atif.ts";

/**
 * Embeds `subagents` (each a sub-agent's own trajectory, `agent.extra.parent_call_id` naming the
 * call that spawned it) in `parent`: each is listed in `subagent_trajectories` and referenced from
 * that call's result; one whose call is not in the parent is still embedded. The totals, which
 * count the sub-agents' requests, say so in `notes`.
 */
export function withSubagents(parent: Trajectory, subagents: readonly Trajectory[]): Trajectory {
  if (subagents.length === 0) return parent;
  const embedded = subagents.map((sub) => ({
    ...sub,
    trajectory_id: sub.trajectory_id ?? sub.session_id,
  }));
  for (const sub of embedded) {
    const callId = sub.agent.extra?.parent_call_id;
    const result = parent.steps.flatMap((s) => s.observation?.results ?? [])
      .find((r) => callId !== undefined && r.source_call_id === callId);
    if (!result) continue;
    const ref = { trajectory_id: sub.trajectory_id, session_id: sub.session_id };
    result.subagent_trajectory_ref = [...(result.subagent_trajectory_ref ?? []), ref];
  }
  const note = `The totals include the requests of ${embedded.length} sub-agent run(s), ` +
    "whose steps are in subagent_trajectories.";
  return {
    ...parent,
    notes: parent.notes ? `${parent.notes}\n${note}` : note,
    subagent_trajectories: embedded,
  };
}
