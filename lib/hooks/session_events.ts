/**
 * The hook events of a session outside tool calls, as the session calls them: SessionStart
 * (`source` startup, resume, clear or compact) and UserPromptSubmit give context for the model,
 * and UserPromptSubmit may block the prompt; PermissionRequest answers an approval question in
 * the user's place; PreCompact may call a compaction off and PostCompact is told it happened;
 * Stop may keep the turn going with a reason the model reads; SubagentStart gives a sub-agent
 * context and SubagentStop may keep it going, as Stop does a turn; Notification is told when an
 * approval or a question waits for the user.
 */
import { type ApprovalAsk, type ApprovalReply } from "../approval/hook.ts";
import { COMMAND_CAPABILITIES, NETWORK_CAPABILITIES } from "../approval/policy.ts";
import { UserError } from "../errors.ts";
import { hookToolView } from "./tool_names.ts";
import type { UserHooks } from "./user_hooks.ts";

/** Where a session's start came from, as SessionStart's matcher and `source` see it. */
export type SessionStartSource = "startup" | "resume" | "clear" | "compact";

/** A compaction the user asked for (`/compact`), or one the context window called for. */
export type CompactTrigger = "manual" | "auto";

/** A UserPromptSubmit hook blocked the prompt; it was not sent. */
class PromptBlockedError extends UserError {
  constructor(reason: string) {
    super(`A UserPromptSubmit hook blocked the prompt: ${reason}`, {
      hint: "Change the prompt, or the hook in your hooks configuration (/hooks lists them)",
    });
  }
}

/** SessionStart: the context the hooks give the model. */
export async function sessionStartContext(
  hooks: UserHooks,
  source: SessionStartSource,
): Promise<string[]> {
  const effects = await hooks.run("SessionStart", { source }, { names: [source] });
  return effects.flatMap((e) => e.contexts);
}

/** UserPromptSubmit: the context the hooks give with `prompt`; a `PromptBlockedError` if blocked. */
export async function promptContext(
  hooks: UserHooks,
  prompt: string,
  signal: AbortSignal,
): Promise<string[]> {
  const effects = await hooks.run("UserPromptSubmit", { prompt }, { signal });
  const blocks = effects.flatMap((e) => e.block ? [e.block] : []);
  if (blocks.length) throw new PromptBlockedError(blocks.join("\n"));
  return effects.flatMap((e) => e.contexts);
}

/**
 * PermissionRequest: the hooks' answer to an approval question, when one answers: any denial
 * wins, else an allowance; undefined leaves the question to the user.
 */
export async function permissionAnswer(
  hooks: UserHooks,
  req: ApprovalAsk,
  opts: { cwd: string; signal: AbortSignal },
): Promise<ApprovalReply | undefined> {
  if (!hooks.has("PermissionRequest")) return undefined;
  const { question } = req;
  const view = hookToolView({
    wireName: req.tool,
    capability: question.capability,
    input: questionInput(question),
  }, opts.cwd);
  const input = {
    ...view.input,
    ...(question.justification ? { description: question.justification } : {}),
  };
  const effects = await hooks.run("PermissionRequest", {
    tool_name: view.name,
    tool_input: input,
    tool_use_id: req.callId,
  }, { names: view.matchNames, signal: opts.signal });
  const answers = effects.flatMap((e) => e.permission ? [e.permission] : []);
  const denied = answers.find((a) => !a.allow);
  if (denied && !denied.allow) return { answer: "deny", note: denied.message };
  return answers.length ? "once" : undefined;
}

/** What waits for the user: an approval of `tool` (its wire name and capability), or a question. */
export interface WaitingFacts {
  type: "permission_prompt" | "elicitation_dialog";
  tool?: string;
  capability?: string;
}

/**
 * Notification: tells the hooks the user is waited for (Claude Code's `message` and
 * `notification_type`, which the matcher tests); what they answer changes nothing.
 */
export async function notification(
  hooks: UserHooks,
  waiting: WaitingFacts,
  cwd = "",
): Promise<void> {
  const tool = waiting.tool === undefined
    ? undefined
    : hookToolView({ wireName: waiting.tool, capability: waiting.capability }, cwd).name;
  const message = tool === undefined
    ? "interpreter has a question for you"
    : `interpreter needs your permission to use ${tool}`;
  await hooks.run("Notification", {
    message,
    title: "interpreter",
    notification_type: waiting.type,
  }, { names: [waiting.type] });
}

/** The capability input an approval question is about, as well as the question tells it. */
function questionInput(question: ApprovalAsk["question"]): unknown {
  if (COMMAND_CAPABILITIES.has(question.capability)) return { command: question.subject };
  if (NETWORK_CAPABILITIES.has(question.capability)) return { url: question.subject };
  try {
    return JSON.parse(question.subject);
  } catch {
    return {};
  }
}

/** A sub-agent as SubagentStart and SubagentStop hooks see it (matchers test `agentType`). */
export interface SubagentFacts {
  agentId: string;
  agentType: string;
}

/** SubagentStart: the hooks' context for the sub-agent, read before its prompt. */
export async function subagentStartContext(
  hooks: UserHooks,
  agent: SubagentFacts,
  signal: AbortSignal,
): Promise<string[]> {
  const effects = await hooks.run("SubagentStart", {
    agent_id: agent.agentId,
    agent_type: agent.agentType,
  }, { names: [agent.agentType], signal });
  return effects.flatMap((e) => e.contexts);
}

/**
 * SubagentStop: the reason to keep the sub-agent going, when a hook blocks its stop (exit 2, or
 * `decision: "block"`) and none asks to stop; `active` is true once it already went on for one.
 */
export async function subagentStopContinuation(
  hooks: UserHooks,
  agent: SubagentFacts & { active: boolean; lastMessage: string },
  signal: AbortSignal,
): Promise<string | undefined> {
  const effects = await hooks.run("SubagentStop", {
    agent_id: agent.agentId,
    agent_type: agent.agentType,
    agent_transcript_path: null,
    stop_hook_active: agent.active,
    last_assistant_message: agent.lastMessage,
  }, { names: [agent.agentType], signal });
  if (effects.some((e) => e.stop !== undefined)) return undefined;
  const reasons = effects.flatMap((e) => e.block ? [e.block] : []);
  return reasons.length ? reasons.join("\n\n") : undefined;
}

/** PreCompact: why a hook calls the compaction off (exit 2, or `continue: false`), if one does. */
export async function compactionVeto(
  hooks: UserHooks,
  trigger: CompactTrigger,
  signal: AbortSignal,
): Promise<string | undefined> {
  const effects = await hooks.run("PreCompact", { trigger, custom_instructions: null }, {
    names: [trigger],
    signal,
  });
  const reasons = effects.flatMap((e) => e.block ?? e.stop ?? []);
  return reasons.length ? reasons.join("\n") : undefined;
}

/** PostCompact: tells the hooks a compaction happened. */
export async function compacted(hooks: UserHooks, trigger: CompactTrigger): Promise<void> {
  await hooks.run("PostCompact", { trigger }, { names: [trigger] });
}

/**
 * Stop: the reason to keep the turn going, when a hook blocks the stop (exit 2, or `decision:
 * "block"`) and none asks to stop (`continue: false`). `active` is true when the turn already
 * went on for a Stop hook, so a hook can let it end.
 */
export async function stopContinuation(
  hooks: UserHooks,
  turn: { active: boolean; lastMessage: string },
  signal: AbortSignal,
): Promise<string | undefined> {
  const effects = await hooks.run("Stop", {
    stop_hook_active: turn.active,
    last_assistant_message: turn.lastMessage,
  }, { signal });
  if (effects.some((e) => e.stop !== undefined)) return undefined;
  const reasons = effects.flatMap((e) => e.block ? [e.block] : []);
  return reasons.length ? reasons.join("\n\n") : undefined;
}
