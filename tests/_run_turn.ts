/** Test helper: one turn of the real loop in a directory, every call allowed, files in-process. */
import { type LoopGuardLimits, loopGuardLink } from "../lib/hooks/loop_guard.ts";
import { remindersLink } from "../lib/hooks/reminders_link.ts";
import { type LoopDeps, type LoopState, runTurn } from "../lib/loop/agent_loop.ts";
import type { TurnOutcome } from "../lib/loop/events.ts";
import { inProcessFs } from "../sandbox/file_system.ts";

/**
 * Runs `state`'s next turn in `cwd` with the PATH of this process, the session's links but
 * approval (every call runs, sandboxed), the loop guard set to `loopGuard` (or its `repeats` to
 * `loopGuardRepeats`); `deps` may add the rest.
 */
export function runTestTurn(
  state: LoopState,
  deps: Pick<LoopDeps, "provider" | "harness"> & Partial<LoopDeps> & {
    cwd: string;
    loopGuardRepeats?: number;
    loopGuard?: Partial<LoopGuardLimits>;
  },
): Promise<TurnOutcome> {
  const { cwd, loopGuardRepeats, loopGuard, ...rest } = deps;
  const limits = {
    ...loopGuard,
    ...(loopGuardRepeats === undefined ? {} : { repeats: loopGuardRepeats }),
  };
  const signal = new AbortController().signal;
  return runTurn(state, {
    toolHooks: (turn) => [remindersLink(turn), loopGuardLink(turn, limits)],
    ctx: {
      cwd,
      signal,
      env: { PATH: Deno.env.get("PATH") ?? "" },
      state: new Map(),
      fs: inProcessFs,
    },
    emit: () => {},
    signal,
    ...rest,
  });
}
