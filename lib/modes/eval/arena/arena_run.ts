/** Runs the arena's contestants at once, with one live status line each on stderr. */
import type { RunRecord } from "../types.ts";
import { type JobOutcome, runJob } from "../job.ts";
import type { TrialPlan } from "../job_layout.ts";
import { ExecEventCounter } from "./exec_events.ts";
import { ArenaStatus } from "./status.ts";
import { writeAll } from "./terminal_io.ts";
import type { PlannedArena } from "./plan.ts";

/** Runs every contestant's trial; the job's outcome. */
export async function runContestants(
  arena: PlannedArena,
  opts: { self: string[]; env: Record<string, string>; color: boolean },
): Promise<JobOutcome> {
  const { contestants, byTrial } = arena;
  const sink = {
    write: (text: string) => writeAll(Deno.stderr, text),
    // A dumb terminal (the REPL's plain mode) gets whole lines, never a redraw.
    terminal: Deno.stderr.isTerminal() && opts.env.TERM !== "dumb",
  };
  const status = new ArenaStatus(sink, contestants, { color: opts.color });
  const counters = new Map(contestants.map((c) => [c.label, new ExecEventCounter()]));
  const labelOf = (trial: string) => byTrial.get(trial)?.label ?? "";
  const finished = new Set<string>();
  const running = (label: string) => {
    const counter = counters.get(label)!;
    status.update(label, {
      kind: "running",
      toolCalls: counter.toolCalls,
      requests: counter.requests,
    });
  };
  try {
    return await runJob(arena.job, {
      self: opts.self,
      keep: false,
      env: opts.env,
      progress: () => ({
        finished: (record: RunRecord) => {
          finished.add(labelOf(record.trial));
          status.update(labelOf(record.trial), { kind: "done", record });
        },
        stop: () => {},
      }),
      hooks: {
        skipMissingCheck: true,
        phase: (trial: TrialPlan, phase) => {
          const label = labelOf(trial.name);
          if (phase === "running") running(label);
          else status.update(label, { kind: phase });
        },
        agentOutput: (trial: TrialPlan, text: string) => {
          const label = labelOf(trial.name);
          counters.get(label)?.push(text);
          running(label);
        },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    for (const c of contestants) {
      if (!finished.has(c.label)) status.update(c.label, { kind: "error", message });
    }
    throw error;
  } finally {
    status.stop();
  }
}
