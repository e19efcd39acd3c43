/**
 * What runs beside a session between turns (background jobs, the interactive terminal) and could
 * change the workspace while a restore writes it: a job the model started can wait for the
 * restore and swap a folder for a symlink. A restore stops them first, or is refused.
 */
import { UserError } from "../errors.ts";
import type { Resources } from "../tools/resources.ts";
import { JOBS_RESOURCE } from "../tools/shell_jobs.ts";
import { TERMINAL_RESOURCE } from "../tools/terminal_keys.ts";
import type { RunningWork, StopRunning } from "./checkpoints/checkpoint_types.ts";

/** The running background jobs and terminal among the session's `resources`. */
export function runningWorkOf(resources: Resources): RunningWork {
  return {
    async list() {
      const jobs = resources.get(JOBS_RESOURCE)?.list() ?? [];
      const lines = jobs.filter((job) => job.status === "running")
        .map((job) => `background job ${job.id}: ${job.command}`);
      const terminal = resources.get(TERMINAL_RESOURCE);
      if (terminal && await terminal.alive()) {
        lines.push("the interactive terminal the agent types into (terminal.keys)");
      }
      return lines;
    },
    async stop() {
      const registry = resources.get(JOBS_RESOURCE);
      const jobs = registry?.list().filter((job) => job.status === "running") ?? [];
      await Promise.all(jobs.map((job) => registry!.stop(job.id)));
      const terminal = resources.get(TERMINAL_RESOURCE);
      if (terminal) {
        resources.delete(TERMINAL_RESOURCE);
        await terminal[Symbol.asyncDispose]();
      }
    },
  };
}

/**
 * Makes sure nothing of `running` runs before files are restored: asks `stop` and stops them on
 * a yes; throws a UserError naming them when there is no one to ask or the answer is no.
 */
export async function quiesce(running: RunningWork, stop: StopRunning | undefined): Promise<void> {
  const names = await running.list();
  if (names.length === 0) return;
  const one = names.length === 1;
  const what = names.join("; ");
  if (!stop) {
    throw new UserError(`Cannot restore files while ${one ? "this runs" : "these run"}: ${what}`, {
      hint: `Stop ${one ? "it" : "them"} first: ${one ? "it" : "they"} could change the ` +
        "workspace during the restore",
    });
  }
  if (!await stop(names)) {
    throw new UserError(`Nothing was restored: ${what} still ${one ? "runs" : "run"}`, {
      hint: `Say yes to stop ${one ? "it" : "them"}, or stop ${one ? "it" : "them"} yourself ` +
        "(/ps, /stop ID) and try again",
    });
  }
  await running.stop();
}

/** Nothing running: for checkpoints outside a session. */
export const NOTHING_RUNNING: RunningWork = Object.freeze({
  list: () => Promise.resolve([]),
  stop: () => Promise.resolve(),
});
