/** Test helper: one turn of the real loop in a directory, every call allowed, files in-process. */
import { type LoopDeps, type LoopState, runTurn } from "../lib/loop/agent_loop.ts";
import { allowAll } from "../lib/loop/_test_loop.ts";
import type { TurnOutcome } from "../lib/loop/events.ts";
import { inProcessFs } from "../sandbox/file_system.ts";

/** Runs `state`'s next turn in `cwd` with the PATH of this process; `deps` may add the rest. */
export function runTestTurn(
  state: LoopState,
  deps: Pick<LoopDeps, "provider" | "harness"> & Partial<LoopDeps> & { cwd: string },
): Promise<TurnOutcome> {
  const { cwd, ...rest } = deps;
  const signal = new AbortController().signal;
  return runTurn(state, {
    beforeToolCall: allowAll,
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
