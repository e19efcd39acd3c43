/**
 * The `tools/call` results of `codex` and `codex-reply`, shaped as Codex shapes them: the text
 * as content and `{threadId, content}` as structured content, `isError` when the turn failed;
 * a session that could not start gets only the text.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../../errors.ts";
import type { PromptOutcome } from "../../session/open.ts";
import { limitWords, repeatedCallFailure } from "../term/loop_stop.ts";

/** A result of thread `threadId`: `text` as content and as structured content. */
export function threadResult(threadId: string, text: string, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text }],
    structuredContent: { threadId, content: text },
    ...(isError ? { isError: true } : {}),
  };
}

/** The result of a call whose session could not be opened. */
export function startFailure(error: unknown): CallToolResult {
  return plainError(`Failed to start Codex session: ${errorText(error)}`);
}

/** An error result with no thread: bad arguments, an unknown tool. */
export function plainError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** The text of a turn's outcome and whether it is an error. */
export function outcomeText(
  outcome: PromptOutcome,
  stoppedBy?: string,
): { text: string; isError: boolean } {
  switch (outcome.status) {
    case "completed":
      return { text: outcome.finalText, isError: false };
    case "aborted":
      return { text: stoppedBy ?? "The turn was cancelled before it finished", isError: true };
    case "failed":
      return { text: withHint(outcome.error.message, outcome.error.hint), isError: true };
    case "step_limit":
    case "budget_limit": {
      const words = limitWords(outcome, (key, to) => `pass "config": {"${key}": ${to}}`);
      return { text: withHint(words.message, words.hint), isError: true };
    }
    case "repeated_call": {
      const failure = repeatedCallFailure(outcome, "--harness");
      return { text: withHint(failure.message, failure.hint), isError: true };
    }
  }
}

/** An error's message, with its hint on a line of its own when it has one. */
export function errorText(error: unknown): string {
  if (error instanceof UserError) return withHint(error.message, error.hint);
  return error instanceof Error ? error.message : String(error);
}

function withHint(message: string, hint: string | undefined): string {
  return hint ? `${message}\nhint: ${hint}` : message;
}
