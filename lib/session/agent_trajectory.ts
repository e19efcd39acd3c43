/**
 * A persistent sub-agent's trajectory: its own conversation as an ATIF file beside the session
 * file (`<session file>.agents/<agent id>.json`), its session id `<parent session id>/<agent id>`.
 * `exec --trajectory FILE` embeds each in the parent's trajectory (ATIF-v1.7 `subagent_trajectories`).
 */
import { join } from "node:path";
import { ATIF_VERSION, type Trajectory, trajectoryOf } from "../trajectory/atif.ts";
import { VERSION } from "../version.ts";
import type { PooledAgent } from "./agent_pool.ts";

/** Where a session's sub-agent trajectories go, and the parent's session id. */
export interface AgentTrajectoryPlace {
  dir: string;
  sessionId: string;
}

/** The folder of the sub-agent trajectories of the session saved at `sessionFile`. */
export function agentTrajectoryDir(sessionFile: string): string {
  return sessionFile.replace(/\.[^./]+$/, "") + ".agents";
}

/** Writes `agent`'s trajectory as it is now; a failure is reported to `warn`, never thrown. */
export async function saveAgentTrajectory(
  agent: PooledAgent,
  place: AgentTrajectoryPlace,
  warn: (message: string) => void,
): Promise<void> {
  const id = agent.facts.agentId;
  const trajectory = trajectoryOf(agent.state.messages, {
    sessionId: `${place.sessionId}/${id}`,
    agent: {
      name: "interpreter",
      version: VERSION,
      modelName: agent.state.model,
      extra: {
        parent_session_id: place.sessionId,
        ...(agent.callId ? { parent_call_id: agent.callId } : {}),
        agent_name: agent.name,
        agent_type: agent.facts.agentType,
      },
    },
    usage: agent.state.usage,
  });
  try {
    await Deno.mkdir(place.dir, { recursive: true });
    const tmp = join(place.dir, `.${id}.json.tmp`);
    await Deno.writeTextFile(tmp, JSON.stringify(trajectory, null, 2) + "\n");
    await Deno.rename(tmp, join(place.dir, `${id}.json`));
  } catch (error) {
    warn(`Cannot save the trajectory of sub-agent ${id}: ${(error as Error).message}`);
  }
}

/** The sub-agent trajectories saved for a session, by agent id (none when there are none). */
export async function savedAgentTrajectories(sessionFile: string): Promise<Map<string, string>> {
  const dir = agentTrajectoryDir(sessionFile);
  const found = new Map<string, string>();
  try {
    for await (const entry of Deno.readDir(dir)) {
      const match = /^(agent-\d+)\.json$/.exec(entry.name);
      if (entry.isFile && match) {
        found.set(match[1], await Deno.readTextFile(join(dir, entry.name)));
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}

/**
 * `own` (the trajectory of the session saved at `sessionFile`) with its persistent sub-agents'
 * saved runs embedded as ATIF-v1.7 `subagent_trajectories`; `own` itself when there are none.
 */
export async function withSavedSubagents(
  sessionFile: string,
  own: Trajectory,
): Promise<Trajectory> {
  const saved = await savedAgentTrajectories(sessionFile);
  if (saved.size === 0) return own;
  // A file saved before v1.7 is read as one; withSubagents() gives it its trajectory_id.
  const found = [...saved].sort(([a], [b]) => a < b ? -1 : 1)
    .map(([, text]): Trajectory => ({ ...JSON.parse(text), schema_version: ATIF_VERSION }));
  const { withSubagents } = await import("../trajectory/subagents.ts");
  return withSubagents(own, found);
}
