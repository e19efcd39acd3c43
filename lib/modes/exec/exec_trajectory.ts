/** `exec --trajectory FILE`: the run as an ATIF trajectory, written when the run ends however it ends. */
import { VERSION } from "../../version.ts";
import type { PromptOutcome, Session } from "../../session/open.ts";
import { type Trajectory, trajectoryOf } from "../../trajectory/atif.ts";
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
 * Writes `session`'s history so far to `path` as ATIF, noting how the run ended when it failed,
 * each persistent sub-agent's run embedded; never through a link (`env` names the session's
 * bubblewrap, see output_file.ts).
 */
export async function writeExecTrajectory(
  path: string,
  session: Session,
  ending: RunEnding,
  env: Record<string, string>,
): Promise<void> {
  const { info } = session;
  const hash = await harnessHashOf(session);
  const trajectory = await withSubagentRuns(
    session,
    trajectoryOf(session.history(), {
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
    }),
  );
  await writeTrajectory(path, trajectory, { write: outputWriterFor(session, env) });
}

/** `own` with the session's persistent sub-agents' saved runs embedded (as it is when none). */
async function withSubagentRuns(session: Session, own: Trajectory): Promise<Trajectory> {
  const sessionFile = session.status().sessionFile;
  if (!sessionFile) return own;
  const { withSavedSubagents } = await import("../../session/agent_trajectory.ts");
  return await withSavedSubagents(sessionFile, own);
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
