/** `/status`: provider, model, harness, sandbox, session and context, one row each. */
import { terminalSafe } from "../../approval/visible.ts";
import type { Session, SessionStatus } from "../../session/open.ts";
import { harnessLabel } from "../../session/status.ts";
import { spendText } from "../term/status_line.ts";
import type { Style } from "../term/style.ts";

/** What `/status` uses of the REPL's command context. */
export interface StatusContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
}

/** `/status`, as the command list takes it. */
export const STATUS_COMMAND = {
  name: "status",
  summary: "provider, model, harness, sandbox, session and context",
  run: (_: string, ctx: StatusContext) => status(ctx),
};

function status(ctx: StatusContext): void {
  const s = terminalSafe(ctx.session().status());
  const percent = s.contextWindow ? Math.round((s.contextUsed / s.contextWindow) * 100) : 0;
  const rows: Array<[string, string]> = [
    ["provider", `${s.provider} (${s.wireApi})`],
    ["model", s.model],
    ["harness", harnessLabel(s)],
    ["sandbox", s.sandbox.startsWith(s.sandboxMode) ? s.sandbox : `${s.sandboxMode}: ${s.sandbox}`],
    ["approval", s.approval],
    ["network", s.network ? "allowed" : "blocked"],
    ["directory", s.cwd],
    ...(s.worktree ? [["worktree", s.worktree] as [string, string]] : []),
    ["session", s.sessionId ?? "not saved"],
    ["file", s.sessionFile ?? "none"],
    [
      "context",
      `${s.contextUsed} / ${s.contextWindow} tokens (${percent}%)` +
      (s.contextNote ? ctx.style.dim(" · the window is a guess") : ""),
    ],
    [
      "repairs",
      s.toolCallRepairs === undefined
        ? "off (tool_call_repair = false)"
        : `${s.toolCallRepairs} tool call${s.toolCallRepairs === 1 ? "" : "s"} recovered from text`,
    ],
    ["tokens", `${s.tokens.input} in (${s.tokens.cached} cached), ${s.tokens.output} out`],
    ["cost", spendText(s.cost, ctx.session().config.max_budget_usd)],
    ...goalRows(s),
  ];
  ctx.print(rows.map(([k, v]) => `${ctx.style.dim(`${k}:`.padEnd(11))} ${v}`));
}

/** The `/status` rows of the session's goal and timers (made terminal-safe by the caller). */
function goalRows(s: SessionStatus): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (s.goal) {
    const budget = s.goal.budget ? ` of ${s.goal.budget}` : "";
    rows.push(["goal", `${s.goal.status}, ${s.goal.used}${budget}: ${s.goal.objective}`]);
  }
  for (const line of s.timers ?? []) rows.push(["timer", line]);
  return rows;
}
