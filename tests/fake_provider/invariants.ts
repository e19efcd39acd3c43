/**
 * Invariants checked on every request, in the manner of codex's request-checking fake: tool
 * results answer earlier calls, no call goes unanswered, the ids and reasoning tokens this server
 * issued come back unchanged, and the current turn's `expect` conditions hold.
 */
import { isDeepStrictEqual } from "node:util";
import type { ReplyPlan, Wire } from "./plan.ts";
import type { RequestView, ViewCall, ViewThinking } from "./request_view.ts";
import type { ScriptExpect } from "./script.ts";

/** A tool call this server sent. */
export interface IssuedCall {
  wire: Wire;
  name: string;
  args: Record<string, unknown>;
  itemId: string;
  /** Gemini: the `thoughtSignature` sent on this call's part, which must come back on it. */
  sealed?: string;
}

/** Everything the server issued so far, which later requests must echo unchanged. */
export interface Ledger {
  calls: Map<string, IssuedCall>;
  /** Thinking signature or encrypted reasoning → the reasoning text it sealed. */
  sealed: Map<string, string>;
  /** Responses reasoning item id → its encrypted content. */
  reasoningItems: Map<string, string>;
  /** Responses response id → the call ids it issued, for `previous_response_id`. */
  responses: Map<string, string[]>;
}

/** Options that relax the checks. */
export interface CheckOptions {
  /** Accept tool calls and reasoning in the history that this server never issued. */
  allowForeignIds: boolean;
  /**
   * Accept issued tool calls that come back under another tool name with other arguments: the
   * agent re-expressed them for another harness (a harness switch). Ids must still match.
   */
  allowTranslatedCalls?: boolean;
}

/** An empty ledger. */
export function newLedger(): Ledger {
  return { calls: new Map(), sealed: new Map(), reasoningItems: new Map(), responses: new Map() };
}

/** Records the ids a reply is about to issue. */
export function recordIssued(ledger: Ledger, plan: ReplyPlan): void {
  for (const [i, call] of plan.calls.entries()) {
    ledger.calls.set(call.id, {
      wire: plan.wire,
      name: call.name,
      args: call.args,
      itemId: call.itemId,
      // Gemini's signature rides on the first call of a reply (render_gemini.ts).
      ...(plan.wire === "gemini" && i === 0 && plan.thinking
        ? { sealed: plan.thinking.sealed }
        : {}),
    });
  }
  if (plan.thinking) {
    ledger.sealed.set(plan.thinking.sealed, plan.thinking.text);
    if (plan.thinking.itemId) ledger.reasoningItems.set(plan.thinking.itemId, plan.thinking.sealed);
  }
  if (plan.wire === "responses") ledger.responses.set(plan.id, plan.calls.map((call) => call.id));
}

/** Problems with a request regardless of which turn it consumes. */
export function checkRequest(view: RequestView, ledger: Ledger, opts: CheckOptions): string[] {
  const problems = [...view.problems];
  if (typeof view.model !== "string" || view.model === "") {
    problems.push(`"model" must be a non-empty string, got ${JSON.stringify(view.model)}`);
  }
  problems.push(...checkPairing(view, ledger));
  for (const entry of view.history) {
    if (entry.kind !== "assistant") continue;
    for (const call of entry.calls) problems.push(...checkIssuedCall(call, ledger, opts));
    for (const thinking of entry.thinking) problems.push(...checkThinking(thinking, ledger, opts));
  }
  return problems;
}

function checkPairing(view: RequestView, ledger: Ledger): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const answered = new Set<string>();
  let pending = new Map<string, string>();
  if (view.previousResponseId !== undefined) {
    const ids = ledger.responses.get(view.previousResponseId);
    if (ids === undefined) {
      problems.push(`"previous_response_id" ${JSON.stringify(view.previousResponseId)} is unknown`);
    }
    for (const id of ids ?? []) {
      seen.add(id);
      pending.set(id, ledger.calls.get(id)?.name ?? "?");
    }
  }
  const closeTurn = (where: string) => {
    for (const [id, name] of pending) {
      problems.push(`Tool call "${id}" (${name}) has no result ${where}`);
    }
    pending = new Map();
  };
  for (const entry of view.history) {
    if (entry.kind === "tool_result") {
      const id = entry.callId;
      if (pending.delete(id)) answered.add(id);
      else if (answered.has(id)) problems.push(`Tool call "${id}" has more than one result`);
      else if (seen.has(id)) {
        problems.push(
          `Tool result for "${id}" does not directly follow the turn that made the call`,
        );
      } else problems.push(`Tool result for "${id}" answers no tool call earlier in the request`);
      continue;
    }
    closeTurn(`before the next ${entry.kind} message`);
    if (entry.kind !== "assistant") continue;
    for (const call of entry.calls) {
      if (seen.has(call.id)) problems.push(`Tool call id "${call.id}" appears more than once`);
      seen.add(call.id);
      pending.set(call.id, call.name);
    }
  }
  closeTurn("at the end of the history");
  return problems;
}

function checkIssuedCall(call: ViewCall, ledger: Ledger, opts: CheckOptions): string[] {
  const issued = ledger.calls.get(call.id);
  if (issued === undefined) {
    return opts.allowForeignIds ? [] : [
      `Tool call "${call.id}" (${call.name}) was never issued by the fake provider; ` +
      "ids must come back unchanged",
    ];
  }
  const problems: string[] = [];
  if (opts.allowTranslatedCalls) return problems;
  if (call.name !== issued.name) {
    problems.push(
      `Tool call "${call.id}" came back named "${call.name}", issued as "${issued.name}"`,
    );
  }
  if (call.args !== undefined && !isDeepStrictEqual(call.args, issued.args)) {
    problems.push(
      `Tool call "${call.id}" came back with arguments ${JSON.stringify(call.args)}, ` +
        `issued with ${JSON.stringify(issued.args)}`,
    );
  }
  if (issued.sealed !== undefined && call.sealed !== issued.sealed) {
    problems.push(
      `Tool call "${call.id}" came back without the thoughtSignature it was issued with; ` +
        "Gemini refuses a function call whose signature is missing or changed",
    );
  }
  if (call.itemId !== undefined && call.itemId !== issued.itemId) {
    problems.push(
      `Tool call "${call.id}" came back with item id "${call.itemId}", issued as "${issued.itemId}"`,
    );
  }
  return problems;
}

function checkThinking(thinking: ViewThinking, ledger: Ledger, opts: CheckOptions): string[] {
  const problems: string[] = [];
  if (thinking.itemId !== undefined) {
    const sealed = ledger.reasoningItems.get(thinking.itemId);
    if (sealed === undefined && !opts.allowForeignIds) {
      problems.push(`Reasoning item "${thinking.itemId}" was never issued by the fake provider`);
    }
    if (sealed !== undefined && thinking.sealed !== undefined && thinking.sealed !== sealed) {
      problems.push(`Reasoning item "${thinking.itemId}" came back with altered encrypted_content`);
    }
    return problems;
  }
  if (thinking.sealed === undefined) return problems;
  const text = ledger.sealed.get(thinking.sealed);
  if (text === undefined && !opts.allowForeignIds) {
    problems.push(`Thinking signature ${JSON.stringify(thinking.sealed)} was never issued`);
  } else if (text !== undefined && thinking.text !== undefined && thinking.text !== text) {
    problems.push("A thinking block came back with text that differs from its signed original");
  }
  return problems;
}

/** Problems with the current turn's `expect` conditions. */
export function checkExpect(view: RequestView, expect: ScriptExpect | undefined): string[] {
  if (expect === undefined) return [];
  const problems: string[] = [];
  const want = (what: string, needle: string | undefined, hay: string | undefined) => {
    if (needle === undefined) return;
    if (hay === undefined) problems.push(`expect.${what}: the request has none`);
    else if (!hay.includes(needle)) {
      problems.push(
        `expect.${what}: wanted ${JSON.stringify(needle)} in ${JSON.stringify(clip(hay))}`,
      );
    }
  };
  const history = view.history;
  const lastResult = history.findLast((entry) => entry.kind === "tool_result");
  const lastUser = history.findLast((entry) => entry.kind === "user");
  want("last_tool_result_contains", expect.last_tool_result_contains, lastResult?.text);
  want("user_contains", expect.user_contains, lastUser?.text);
  want("system_contains", expect.system_contains, view.system === "" ? undefined : view.system);
  for (const name of expect.tools_include ?? []) {
    if (!view.toolNames.includes(name)) {
      problems.push(
        `expect.tools_include: no tool named "${name}" among ${JSON.stringify(view.toolNames)}`,
      );
    }
  }
  return problems;
}

function clip(text: string): string {
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
