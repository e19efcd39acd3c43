/** `exec --trajectory FILE`: the run as an ATIF trajectory, written when the run ends however it ends. */
import { basename } from "node:path";
import { VERSION } from "../../version.ts";
import type { PromptOutcome, Session } from "../../session/open.ts";
import { trajectoryOf } from "../../trajectory/atif.ts";
import { writeTrajectory } from "../../trajectory/write.ts";
import type { RunCounts } from "../../trajectory/run_counts.ts";
import { harnessHashOf, outputWriterFor } from "../../session/run_outputs.ts";
import { failureOf } from "./exec_turn.ts";

/** How a run ended: its outcome, the signal that stopped it, or the error it threw. */
export interface RunEnding {
  outcome?: PromptOutcome;
  stoppedBy?: { name: Deno.Signal };
  error?: unknown;
  /** What the run counted (`final_metrics.extra.run_counts`). */
  counts?: RunCounts;
}

/**
 * Writes `session`'s history so far to `path` as ATIF, noting how the run ended when it failed;
 * never through a link (`env` names the session's bubblewrap, see output_file.ts).
 */
export async function writeExecTrajectory(
  path: string,
  session: Session,
  ending: RunEnding,
  env: Record<string, string>,
): Promise<void> {
  const { info } = session;
  const hash = await harnessHashOf(session);
  const subagents = await writeSubagentTrajectories(path, session, env);
  const trajectory = trajectoryOf(session.history(), {
    sessionId: session.id,
    agent: {
      name: "interpreter",
      version: VERSION,
      modelName: info.model,
      extra: {
        provider: info.provider,
        harness: info.harness,
        wire_api: info.wireApi,
        ...(hash ? { harness_hash: hash } : {}),
      },
    },
    usage: session.usage,
    costUsd: session.status().cost,
    notes: endingNote(ending),
    finalExtra: {
      ...(ending.counts ? { run_counts: ending.counts } : {}),
      run_status: statusOf(ending),
    },
    ...(subagents.length ? { extra: { subagent_trajectories: subagents } } : {}),
  });
  await writeTrajectory(path, trajectory, { write: outputWriterFor(session, env) });
}

/**
 * Writes each persistent sub-agent's trajectory beside `path` (`<name>.<agent id>.json`) and
 * returns their references: the sub-agent's session id and the file's name.
 */
async function writeSubagentTrajectories(
  path: string,
  session: Session,
  env: Record<string, string>,
): Promise<Array<{ session_id: string; file: string }>> {
  const sessionFile = session.status().sessionFile;
  if (!sessionFile) return [];
  const { savedAgentTrajectories } = await import("../../session/agent_trajectory.ts");
  const refs: Array<{ session_id: string; file: string }> = [];
  const stem = path.replace(/\.json$/, "");
  for (const [id, text] of await savedAgentTrajectories(sessionFile)) {
    const trajectory = JSON.parse(text);
    const file = `${stem}.${id}.json`;
    await writeTrajectory(file, trajectory, { write: outputWriterFor(session, env) });
    refs.push({ session_id: trajectory.session_id, file: basename(file) });
  }
  return refs;
}

/** A line on how the run ended; undefined when the turn completed. */
function endingNote(ending: RunEnding): string | undefined {
  const { outcome, stoppedBy, error } = ending;
  if (error !== undefined) {
    return `The run failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!outcome || outcome.status === "completed") return undefined;
  if (outcome.status === "aborted") {
    return stoppedBy && stoppedBy.name !== "SIGINT"
      ? `Stopped by ${stoppedBy.name}`
      : "Interrupted";
  }
  return `The turn ended with ${outcome.status}: ${failureOf(outcome).message}`;
}

/** How the run ended, in one word (`completed`, `failed`, `step_limit`, `aborted`, `error`…). */
function statusOf(ending: RunEnding): string {
  if (ending.error !== undefined) return "error";
  return ending.outcome?.status ?? "aborted";
}
