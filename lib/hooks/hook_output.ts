/**
 * What a finished hook command says, by the rules Codex and Claude Code share (§9). Exit 0:
 * success; stdout may be a JSON object (`systemMessage`, `continue`/`stopReason`, `decision`
 * "block" with `reason`, `hookSpecificOutput` with `additionalContext`, `permissionDecision`,
 * `permissionDecisionReason`, `updatedInput`, or PermissionRequest's `decision.behavior`), and
 * for SessionStart and UserPromptSubmit plain text is context for the model. Exit 2: blocks,
 * stderr being the reason (empty stderr is a hook error). Any other code, a timeout or a
 * command that cannot start: a warning for the user, and the session goes on.
 */
import type { HookEvent } from "../config/hooks_schema.ts";
import type { HookProcessResult } from "./run_hook.ts";

/** One hook's effect on its event. */
export interface HookEffect {
  /** For the user: hook errors, `systemMessage`. */
  warnings: string[];
  /** For the model: `additionalContext`, or SessionStart's and UserPromptSubmit's plain stdout. */
  contexts: string[];
  /** Exit 2's stderr, or the reason of a "block" or "deny" decision. */
  block?: string;
  /** PreToolUse `permissionDecision: "ask"`: the user is asked about the call, for this reason. */
  ask?: string;
  /** PreToolUse: the input to run the tool with instead. */
  updatedInput?: Record<string, unknown>;
  /** PermissionRequest: the hook's answer in place of the user's. */
  permission?: { allow: true } | { allow: false; message: string };
  /** `continue: false`: the hook asks to stop, for this reason. */
  stop?: string;
}

/** Events whose plain stdout is context for the model. */
const PLAIN_CONTEXT: ReadonlySet<HookEvent> = new Set(["SessionStart", "UserPromptSubmit"]);

/**
 * The effect of a hook of `event` that finished with `result`; `label` names the hook in
 * warnings (`PreToolUse hook "./check.sh"`), `timeoutSec` is its timeout.
 */
export function hookEffect(
  event: HookEvent,
  result: HookProcessResult,
  hook: { label: string; timeoutSec: number },
): HookEffect {
  const effect: HookEffect = { warnings: [], contexts: [] };
  const { label } = hook;
  if (result.error !== undefined) {
    effect.warnings.push(`${label} could not start: ${result.error}`);
  } else if (result.timedOut) {
    effect.warnings.push(`${label} did not finish within ${hook.timeoutSec}s and was stopped`);
  } else if (result.code === 2) {
    const reason = result.stderr.trim();
    if (reason) setBlock(event, effect, reason);
    else effect.warnings.push(`${label} exited with code 2 but wrote no reason to stderr`);
  } else if (result.code !== 0) {
    const detail = firstLines(result.stderr);
    effect.warnings.push(`${label} exited with code ${result.code}${detail ? `: ${detail}` : ""}`);
  } else {
    readStdout(event, result.stdout, effect, label);
  }
  return effect;
}

function readStdout(event: HookEvent, stdout: string, effect: HookEffect, label: string): void {
  const text = stdout.trim();
  if (!text) return;
  if (!text.startsWith("{")) {
    if (PLAIN_CONTEXT.has(event)) effect.contexts.push(text);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    effect.warnings.push(`${label} wrote output that is not valid JSON; it was ignored`);
    return;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return;
  readJson(event, json as Record<string, unknown>, effect, label);
}

function readJson(
  event: HookEvent,
  json: Record<string, unknown>,
  effect: HookEffect,
  label: string,
): void {
  if (typeof json.systemMessage === "string") effect.warnings.push(json.systemMessage);
  if (json.continue === false) {
    effect.stop = textOf(json.stopReason) ?? `${label} asked to stop`;
  }
  const specific = asRecord(json.hookSpecificOutput);
  const context = textOf(specific.additionalContext);
  if (context) effect.contexts.push(context);
  if (json.decision === "block") {
    const reason = textOf(json.reason);
    if (reason) setBlock(event, effect, reason);
    else effect.warnings.push(`${label} returned decision "block" without a reason`);
  }
  if (event === "PreToolUse") readPreToolUse(specific, effect, label);
  if (event === "PermissionRequest") readPermissionRequest(specific, effect);
}

function readPreToolUse(specific: Record<string, unknown>, effect: HookEffect, label: string) {
  const decision = specific.permissionDecision;
  if (decision === "deny") {
    effect.block = textOf(specific.permissionDecisionReason) ?? `${label} denied the call`;
    return;
  }
  if (decision === "ask") {
    effect.ask = textOf(specific.permissionDecisionReason) ?? `${label} asks for confirmation`;
  }
  const updated = specific.updatedInput;
  if (updated === undefined || updated === null) return;
  if (decision !== undefined && decision !== "allow") return;
  if (typeof updated === "object" && !Array.isArray(updated)) {
    effect.updatedInput = updated as Record<string, unknown>;
  } else {
    effect.warnings.push(`${label} returned an updatedInput that is not an object; it was ignored`);
  }
}

function readPermissionRequest(specific: Record<string, unknown>, effect: HookEffect) {
  const decision = asRecord(specific.decision);
  if (decision.behavior === "allow") effect.permission = { allow: true };
  if (decision.behavior === "deny") {
    const message = textOf(decision.message) ?? "A PermissionRequest hook denied it";
    effect.permission = { allow: false, message };
  }
}

function setBlock(event: HookEvent, effect: HookEffect, reason: string): void {
  if (event === "PermissionRequest") effect.permission = { allow: false, message: reason };
  else effect.block = reason;
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** The start of a hook's stderr for a warning: three lines at most. */
function firstLines(text: string): string {
  const lines = text.trim().split("\n");
  const head = lines.slice(0, 3).join(" / ");
  return lines.length > 3 ? `${head} / …` : head;
}
