/**
 * Approvals as the Codex MCP server asks for them: an `elicitation/create` request whose params
 * carry the `codex_*` fields of an `exec-approval` or a `patch-approval`, and the client's
 * `decision` in its answer (Codex's own `{decision}`, or inside an MCP `{action, content}`).
 */
import { approvalView } from "../../session/tool_views/approval_view.ts";
import type { ApprovalRequest } from "../../session/types.ts";
import type { ToolView } from "../../session/tool_views/tool_view.ts";
import { changesOf, commandArgv, parsedCommand } from "./codex_events.ts";

/** What a client may decide; Codex's `ReviewDecision`. */
export type ReviewDecision = "approved" | "approved_for_session" | "denied" | "abort" | "timed_out";

const DECISIONS: readonly string[] = [
  "approved",
  "approved_for_session",
  "denied",
  "abort",
  "timed_out",
];

/** What an approval question is about, for the elicitation that asks it. */
export interface ApprovalContext {
  /** The session's id. */
  threadId: string;
  /** The `tools/call` request the session runs for, as a string. */
  toolCallId: string;
  /** The id of the events of that call (`id` of its `codex/event` notifications). */
  eventId: string;
  /** The question (its view is read again here with the call's `view`). */
  request: Omit<ApprovalRequest, "view">;
  /** The view of the call waiting for the answer, when its start was seen. */
  view?: ToolView;
  /** The capability input it was started with. */
  input?: unknown;
  /** The session's working directory. */
  cwd: string;
}

/** The params of the `elicitation/create` request that asks the client. */
export function elicitationParams(ctx: ApprovalContext): Record<string, unknown> {
  const { request, view } = ctx;
  const common = {
    requestedSchema: { type: "object", properties: {} },
    threadId: ctx.threadId,
    codex_mcp_tool_call_id: ctx.toolCallId,
    codex_event_id: ctx.eventId,
    codex_call_id: request.callId,
  };
  // The question's view, read again with the call's own view, which says where a command runs.
  const asked = approvalView(request, ctx.cwd, view);
  const { reason, justification } = asked;
  const why = `\nReason: ${reason}${justification ? `\nThe model says: ${justification}` : ""}`;
  const changes = view?.kind === "file_change" ? view.changes : asked.changes;
  if (view?.kind === "file_change" || asked.kind === "file_change") {
    const paths = changes.map((c) => c.displayPath || c.path);
    return {
      message: `Allow the agent to change ${paths.join(", ") || "files"}?${why}`,
      ...common,
      codex_elicitation: "patch-approval",
      codex_reason: [reason, justification].filter(Boolean).join("\n") || null,
      codex_grant_root: null,
      codex_changes: changesOf(changes, ctx.input),
    };
  }
  const { command, cwd } = asked;
  const message = command !== undefined
    ? `Allow the agent to run \`${command}\` in \`${cwd}\`?`
    : `Allow the agent to use ${asked.tool}: ${asked.subject}?`;
  return {
    message: `${message}${why}`,
    ...common,
    codex_elicitation: "exec-approval",
    codex_command: command !== undefined
      ? commandArgv(ctx.input, command)
      : [asked.tool, asked.subject],
    codex_cwd: cwd,
    codex_parsed_cmd: parsedCommand(command ?? asked.subject),
  };
}

/**
 * The decision in a client's answer, read as Codex reads it: with `action` "accept" the
 * `decision` in `content` (or beside it), approved when there is none; "decline" and "cancel"
 * deny; without `action`, Codex's `{decision}`. Anything else denies.
 */
export function decisionOf(answer: unknown): ReviewDecision {
  const result = record(answer);
  if (!result) return "denied";
  const action = result.action;
  if (action === "accept") {
    const inContent = record(result.content)?.decision;
    const decision = inContent ?? result.decision;
    return decision === undefined ? "approved" : decisionValue(decision);
  }
  if (action !== undefined) return "denied";
  return decisionValue(result.decision);
}

/** A decision value: one of the names, or an object form (`{approved_execpolicy_amendment}`). */
function decisionValue(value: unknown): ReviewDecision {
  if (typeof value === "string") {
    return DECISIONS.includes(value) ? value as ReviewDecision : "denied";
  }
  const form = record(value);
  const keys = form ? Object.keys(form) : [];
  return keys.length === 1 && keys[0].startsWith("approved") ? "approved" : "denied";
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}
