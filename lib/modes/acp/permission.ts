/**
 * What an ACP permission request shows: for an edit, the change as `diff` content (the old and
 * the new text of each hunk) before the reason; for anything else, what would run and why.
 */
import type {
  PermissionOption,
  RequestPermissionOutcome,
  ToolCallContent,
} from "@agentclientprotocol/sdk";
import type { ApprovalAnswer, ApprovalQuestion } from "../../approval/hook.ts";
import { proposedChanges } from "../../session/tool_views/proposed_changes.ts";
import { changeContent } from "./tool_calls.ts";

/** The choices of a permission request, with the OI fork's ids. */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "accept", name: "Allow once", kind: "allow_once" },
  { optionId: "acceptForSession", name: "Allow for this session", kind: "allow_always" },
  { optionId: "decline", name: "Reject", kind: "reject_once" },
];
const ANSWERS: Record<string, ApprovalAnswer> = {
  accept: "once",
  acceptForSession: "session",
  decline: "deny",
};

/** The answer a client's outcome gives; no outcome (the client failed to answer) denies. */
export function answerOf(outcome: RequestPermissionOutcome | undefined): ApprovalAnswer {
  return outcome?.outcome === "selected" ? ANSWERS[outcome.optionId] ?? "deny" : "deny";
}

/** The content of the request's tool call for `question`; paths resolve against `cwd`. */
export function permissionContent(question: ApprovalQuestion, cwd: string): ToolCallContent[] {
  const diffs = proposedChanges(question, cwd).flatMap(changeContent);
  const text = questionText(question, { subject: diffs.length === 0 });
  return [...diffs, { type: "content", content: { type: "text", text } }];
}

/** What the user is asked, as text; the subject left out when a diff shows it. */
function questionText(question: ApprovalQuestion, opts: { subject: boolean }): string {
  const lines = opts.subject ? [question.subject, ""] : [];
  lines.push(`Why: ${question.reason}`);
  if (question.justification) lines.push(`The model says: ${question.justification}`);
  if (question.unsandboxed) lines.push("It would run outside the sandbox.");
  return lines.join("\n");
}
