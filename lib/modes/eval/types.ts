/**
 * The shapes `interpreter eval` works with: the tasks it runs, the trials it plans, and the
 * record each finished run leaves. A run record is stored in its trial's `result.json` (Harbor's
 * `agent_result.metadata.interpreter`), so a report can be rebuilt from the job folder alone.
 */

import type { RunCounts } from "../../trajectory/run_counts.ts";

export type { FailedCalls } from "../../trajectory/run_counts.ts";

/** One task: what the agent is asked, and how the result is checked. */
export interface EvalTask {
  /** A short name, unique within the job (for a task given on the command line, the folder's name). */
  name: string;
  /** The instruction given to the agent. */
  prompt: string;
  /** A shell command run in the copy after the agent; exit 0 passes. */
  check?: string;
  /** A shell command run in the copy before the agent (in the sandbox, the network on). */
  setup?: string;
  /** Whether the check may reach the network (the setup always may); default false. */
  network?: boolean;
  /** Variables added to the check's environment (Harbor's `[verifier] env`), `${VAR}` resolved. */
  verifierEnv?: Record<string, string>;
  /** The agent's time limit in seconds. */
  timeoutSec?: number;
  /** The check's time limit in seconds. */
  checkTimeoutSec?: number;
  /** A Harbor task folder: its `tests/test.sh` is the check, writing `reward.txt`. */
  harborDir?: string;
}

/** How the agent's run ended. */
export type RunStatus =
  | "completed"
  | "failed"
  | "step_limit"
  /** The run reached `--max-budget-usd` (`max_budget_usd`). */
  | "budget_limit"
  | "repeated_call"
  | "aborted"
  | "timeout"
  | "error";

/** Everything one finished run recorded: one row of `--json`, one trial of the job. */
export interface RunRecord extends RunCounts {
  /** The trial folder's name inside the job folder. */
  trial: string;
  task: string;
  harness: string;
  model: string;
  provider: string | null;
  /** 1-based repetition of this task × harness × model. */
  attempt: number;
  passed: boolean;
  /** The check's reward: 1 or 0 from an exit code, or the value of a verifier's reward.txt. */
  reward: number | null;
  status: RunStatus;
  /** Why the run or its check failed to run, when it did. */
  error: string | null;
  tokens: { input: number; output: number; cached: number };
  /** Null when the catalog has no price for the model. */
  cost_usd: number | null;
  /** Wall time in seconds. */
  time_sec: { setup: number; agent: number; check: number; total: number };
  /** Null when the diff could not be taken. */
  diff: { files: number; added: number; deleted: number } | null;
  /** `interpreter resume ID` opens the run. Null when the run never started a session. */
  session_id: string | null;
  /** sha256 of the harness's data files, so results stay comparable across versions. */
  harness_hash: string | null;
  started_at: string;
  finished_at: string;
}
