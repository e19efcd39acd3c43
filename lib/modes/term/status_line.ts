/**
 * The status line the REPL shows after each turn and under its spinner, and `exec` prints last on
 * stderr: `gpt-4.1 · native · 12% context · 3.4k in / 512 out · $0.0123`.
 */
import { terminalText } from "../../approval/visible.ts";
import type { SessionStatus } from "../../session/open.ts";
import type { Timer } from "../../tools/schedule.ts";

/** What the line is made of: a session's status. */
export type StatusLineFacts = Pick<
  SessionStatus,
  "model" | "harness" | "contextUsed" | "contextWindow" | "tokens" | "cost" | "goal"
>;

/** The status line of a session; the cost only when the catalog has the model's prices. */
export function statusLine(s: StatusLineFacts): string {
  const parts = [
    terminalText(s.model),
    terminalText(s.harness),
    `${contextPercent(s)}% context`,
    `${formatTokens(s.tokens.input)} in / ${formatTokens(s.tokens.output)} out`,
  ];
  if (s.cost !== undefined) parts.push(formatCost(s.cost));
  if (s.goal) {
    parts.push(
      `goal ${s.goal.status} ${s.goal.used}${s.goal.budget ? ` of ${s.goal.budget}` : ""}`,
    );
  }
  return parts.join(" · ");
}

/**
 * The status line of `session`, or undefined when `status_line = false`; `script` is the line a
 * status-line script printed (`status_script.ts`), shown instead of the built-in one.
 */
export function sessionStatusLine(
  session: { readonly config: { status_line?: boolean }; status(): StatusLineFacts },
  script?: string,
): string | undefined {
  if (session.config.status_line === false) return undefined;
  return script ?? statusLine(session.status());
}

/** The share of the context window in use, in whole percent. */
function contextPercent(s: Pick<SessionStatus, "contextUsed" | "contextWindow">): number {
  return s.contextWindow > 0 ? Math.round((s.contextUsed / s.contextWindow) * 100) : 0;
}

/** A token count for a glance: `512`, `3.4k`, `34k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 9_950) return `${(n / 1000).toFixed(1)}k`;
  if (n < 999_500) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** USD: four decimals under a dollar (`$0.0123`), two from there (`$12.30`). */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.0001) return "<$0.0001";
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** `/status`'s spend, against the budget when one is set (`max_budget_usd`). */
export function spendText(cost: number | undefined, budget: number | undefined): string {
  const spent = cost === undefined ? "unknown: no prices in the model catalog" : formatCost(cost);
  if (budget === undefined) return spent;
  const share = cost === undefined ? "" : ` (${Math.round((cost / budget) * 100)}%)`;
  return `${spent} of the $${budget} budget${share}, max_budget_usd`;
}

/** The line shown before the prompt of a timer that fired (a wake-up or cron job) runs. */
export function wakeupLine(t: Timer): string {
  const what = t.kind === "cron" ? `cron job ${t.id} (${t.cron})` : `wake-up ${t.id}`;
  return `${what} fired${t.reason ? `: ${t.reason}` : ""}`;
}
