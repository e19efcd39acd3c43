/**
 * What `/status` reports of a `LiveSession`: its model, sandbox, file, context use, tokens and
 * cost, with the cost charged at the prices of each model the tokens went to.
 */
import { surfaceNote } from "../harness/lean.ts";
import type { Harness } from "../harness/types.ts";
import { contextTokens } from "./compaction.ts";
import { currentGoal, goalFigures } from "../tools/goals.ts";
import { sessionTimers, type Timer, timerLine } from "../tools/schedule.ts";
import { type CostMeter, modelPrice, priceOptionsOf } from "./cost.ts";
import type { TurnOutcome } from "../loop/events.ts";
import type { ProviderSettings } from "../providers/types.ts";
import type { SessionParts } from "./session_parts.ts";
import type { SessionInfo, SessionStatus } from "./types.ts";

/**
 * Charges the tokens used since the last charge (a sub-agent's so far included) at the prices of
 * the model in use; the turn's end when the cost has reached `max_budget_usd`, which the session
 * and its sub-agents ask before each model request.
 */
export function chargeCost(parts: SessionParts, cost: CostMeter): TurnOutcome | undefined {
  const { loop } = parts.state;
  const values = parts.live.agent.config.values;
  const price = modelPrice(
    parts.catalog,
    parts.live.provider.settings,
    loop.model,
    priceOptionsOf(values),
  );
  cost.charge(loop.usage, price);
  return cost.stopAt(values.max_budget_usd);
}

/**
 * Refuses a model `max_budget_usd` cannot be kept for (no price), at start and on a model change;
 * nothing without a budget (budget.ts loads only with one).
 */
export async function requireBudgetPrice(
  parts: Pick<SessionParts, "catalog"> & { live: Pick<SessionParts["live"], "agent"> },
  route: { settings: Pick<ProviderSettings, "id" | "baseUrl">; model: string },
): Promise<void> {
  const values = parts.live.agent.config.values;
  if (values.max_budget_usd === undefined) return;
  (await import("./budget.ts")).requirePrice(parts.catalog, values, route.settings, route.model);
}

/** The session's status now, after charging the tokens used so far. */
export function sessionStatusOf(parts: SessionParts, cost: CostMeter): SessionStatus {
  chargeCost(parts, cost);
  const { agent, recorder } = parts.live;
  const { loop, limits, repairs } = parts.state;
  const values = agent.config.values;
  // The harness may have changed since the session started (`/harness`).
  const info = { ...parts.info };
  delete info.surface;
  return {
    ...info,
    ...harnessSurface(parts.state.harness),
    sandboxMode: agent.sandbox.mode,
    sandbox: agent.sandbox.sandbox.status.description,
    approval: agent.sandbox.policy,
    network: agent.sandbox.networkAllowed,
    sessionId: recorder.savedId,
    sessionFile: recorder.file,
    contextUsed: contextTokens(loop),
    contextWindow: limits.contextWindow,
    toolCallRepairs: values.tool_call_repair === false ? undefined : repairs,
    tokens: {
      input: loop.usage.inputTokens,
      output: loop.usage.outputTokens,
      cached: loop.usage.cachedInputTokens,
    },
    cost: cost.usd,
    reasoningEffort: loop.reasoningEffort,
    textProtocol: parts.state.harness.protocol !== undefined,
    ...goalAndTimers(parts.state.toolState),
  };
}

function goalAndTimers(state: Map<string, unknown>): Pick<SessionStatus, "goal" | "timers"> {
  const g = currentGoal(state);
  const goal = g && { objective: g.objective, status: g.status, ...goalFigures(g) };
  const timers = sessionTimers(state).map((t) => timerLine(t));
  return { ...(goal ? { goal } : {}), ...(timers.length ? { timers } : {}) };
}

/** Sets the session's goal as the user gives it (`/goal`); none clears it. */
export async function setSessionGoal(parts: SessionParts, objective?: string): Promise<void> {
  const { loop, toolState } = parts.state;
  const { setUserGoal } = await import("../tools/goals_run.ts");
  setUserGoal(toolState, objective, loop.usage.inputTokens + loop.usage.outputTokens);
}

/** The session's timers; with "due", those due now, taken out. */
export async function sessionTimersOf(parts: SessionParts, take?: "due"): Promise<Timer[]> {
  const state = parts.state.toolState;
  if (sessionTimers(state).length === 0) return [];
  // Loaded while timers are pending: taking the due ones then waits for no module.
  const run = await import("../tools/schedule_run.ts");
  return take === "due" ? run.takeDueTimers(state) : sessionTimers(state);
}

/** `{ surface }` for a harness presented lean (or full although asked), and why it is in use. */
export function harnessSurface(h: Harness): Pick<SessionInfo, "surface" | "harnessReason"> {
  const surface = surfaceNote(h);
  const harnessReason = h.choiceReason ?? "switched with /harness";
  return surface === undefined ? { harnessReason } : { surface, harnessReason };
}

/** The harness as the banner and `/status` name it: "qwen-code (lean: 0.6B parameters)". */
export function harnessLabel(info: Pick<SessionInfo, "harness" | "surface">): string {
  return info.surface ? `${info.harness} (${info.surface})` : info.harness;
}
