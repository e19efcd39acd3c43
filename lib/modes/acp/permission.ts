/**
 * What an ACP permission request shows, from the view the session builds for every front end:
 * for an edit, the change as `diff` content (the old and the new text of each hunk) before the
 * reason; for anything else, what would run and why.
 */
import type {
  PermissionOption,
  RequestPermissionOutcome,
  ToolCallContent,
} from "@agentclientprotocol/sdk";
import type { ApprovalAnswer } from "../../approval/hook.ts";
import {
  APPROVAL_OPTIONS,
  type ApprovalOption,
  type ApprovalView,
} from "../../session/tool_views/approval_view.ts";
import { changeContent } from "./tool_calls.ts";

const KINDS: Record<ApprovalAnswer, PermissionOption["kind"]> = {
  once: "allow_once",
  session: "allow_always",
  deny: "reject_once",
};

/** The choices of a permission request (the OI fork's ids). */
export function permissionOptions(options: readonly ApprovalOption[]): PermissionOption[] {
  return options.map((o) => ({ optionId: o.id, name: o.label, kind: KINDS[o.answer] }));
}

/** The answer a client's outcome gives; no outcome (the client failed to answer) denies. */
export function answerOf(outcome: RequestPermissionOutcome | undefined): ApprovalAnswer {
  if (outcome?.outcome !== "selected") return "deny";
  return APPROVAL_OPTIONS.find((o) => o.id === outcome.optionId)?.answer ?? "deny";
}

/** The content of the request's tool call for the question `view` shows. */
export function permissionContent(view: ApprovalView): ToolCallContent[] {
  const diffs = view.changes.flatMap(changeContent);
  const text = questionText(view, { subject: diffs.length === 0 });
  return [...diffs, { type: "content", content: { type: "text", text } }];
}

/** What the user is asked, as text; the subject left out when a diff shows it. */
function questionText(view: ApprovalView, opts: { subject: boolean }): string {
  const lines = opts.subject ? [view.subject, ""] : [];
  lines.push(`Why: ${view.reason}`);
  if (view.justification) lines.push(`The model says: ${view.justification}`);
  if (view.unsandboxed) lines.push("It would run outside the sandbox.");
  return lines.join("\n");
}
