/**
 * What a live session adds to its history besides the turns themselves: a compaction of it
 * (`/compact`, or automatic near the window: the turn's messages so far go to the session file,
 * the summary replaces the history, the file records the compaction, and the front end hears how
 * many tokens it saved), and the skills a prompt names with `$name`.
 */
import type { Block, Message } from "../model/message.ts";
import { skillMessages } from "../workspace/skill_mentions.ts";
import { compactHistory, contextTokens, countingUsage } from "./compaction.ts";
import type { SessionParts } from "./session_parts.ts";

/** Compacts the history of the session made of `parts`. */
export async function compactSession(parts: SessionParts, signal: AbortSignal): Promise<void> {
  const { loop, harness, context, limits } = parts.state;
  const { recorder, provider } = parts.live;
  // What the turn added so far goes to the file before the summary replaces it.
  recorder.syncMessages();
  const before = contextTokens(loop);
  const counted = countingUsage(provider, loop.usage);
  const messages = await compactHistory(loop, counted, signal, harness.texts, context, limits);
  recorder.compacted(messages, before);
  parts.io.onEvent({ type: "compacted", tokensBefore: before, tokensAfter: contextTokens(loop) });
}

/** The `<skill>` messages for the skills the user's message names with `$name`. */
export function mentionedSkills(parts: SessionParts, input: string | Block[]): Promise<Message[]> {
  const { workspace, sandbox } = parts.live.agent;
  return skillMessages(input, {
    skills: () => workspace.skills(sandbox.fs),
    fs: sandbox.fs,
    warn: (message) => parts.io.onEvent({ type: "warning", message }),
  });
}
