/**
 * A saved conversation as the updates `session/load` replays before it answers: the user's
 * messages, the agent's answers and reasoning, and each tool call with its result, the calls
 * read by capability as the session reads them (`Session.replayHistory()`) so that they get the
 * same kinds, titles and diffs as live ones.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Block } from "../../model/message.ts";
import type { ReplayedCall, ReplayedHistory } from "../../session/replay_history.ts";
import { chunk, type SessionUpdates } from "./updates.ts";

type ToolCallBlock = Extract<Block, { type: "tool_call" }>;

/**
 * The updates that replay `history` (a session's conversation without its harness context),
 * their tool call ids from the session's own `updates` (which has seen the session start).
 */
export function replayUpdates(
  history: ReplayedHistory,
  updates: SessionUpdates,
  opts: { showReasoning: boolean },
): SessionUpdate[] {
  const calls = new Map<string, { call: ToolCallBlock } & ReplayedCall>();
  const out: SessionUpdate[] = [];
  for (const message of history.messages) {
    if (message.role === "user") {
      if (!message.systemRole) out.push(...userChunks(message.blocks));
    } else if (message.role === "assistant") {
      for (const block of message.blocks) {
        if (block.type === "text" && block.text) out.push(chunk("agent_message_chunk", block.text));
        if (block.type === "thinking" && block.text && opts.showReasoning) {
          out.push(chunk("agent_thought_chunk", block.text));
        }
        if (block.type !== "tool_call") continue;
        const resolved = history.calls.get(block.id) ?? {};
        calls.set(block.id, { call: block, ...resolved });
        out.push(...updates.map({ type: "tool_start", call: block, ...resolved }));
      }
    } else {
      const started = calls.get(message.callId);
      const call = started?.call ?? { id: message.callId, name: message.name, args: {} };
      const text = message.blocks.flatMap((b) => b.type === "text" ? [b.text] : []).join("\n");
      out.push(...updates.map({
        type: "tool_end",
        call,
        capability: started?.capability,
        output: replayOutput(started),
        text,
        isError: message.isError,
      }));
    }
  }
  return out;
}

function userChunks(blocks: Block[]): SessionUpdate[] {
  return blocks.flatMap((b): SessionUpdate[] => {
    if (b.type === "text" && !b.context) return [chunk("user_message_chunk", b.text)];
    if (b.type === "image") {
      return [{
        sessionUpdate: "user_message_chunk",
        content: { type: "image", mimeType: b.mime, data: b.base64 },
      }];
    }
    return [];
  });
}

/**
 * What the saved file does not keep of an edit's output, its diff, made again from its input:
 * a patch's hunks (`fs.apply_patch`) and the replaced text (`fs.edit`).
 */
function replayOutput(started: ReplayedCall | undefined): unknown {
  const input = (started?.input ?? {}) as Record<string, unknown>;
  if (started?.capability === "fs.apply_patch" && typeof input.patch === "string") {
    return { changes: patchSections(input.patch) };
  }
  if (started?.capability === "fs.edit" && typeof input.path === "string") {
    const edits = Array.isArray(input.edits) ? input.edits as Record<string, unknown>[] : [input];
    const body = edits.map((e) => `@@\n${lined("-", e.old_string)}${lined("+", e.new_string)}`);
    return { path: input.path, diff: body.join("") };
  }
  return undefined;
}

function patchSections(patch: string): Array<{ path: string; kind: string; diff: string }> {
  const sections: Array<{ path: string; kind: string; diff: string }> = [];
  for (const line of patch.replace(/\n$/, "").split("\n")) {
    const header = line.match(/^\*\*\* (Add|Delete|Update) File: (.+)$/);
    if (header) {
      const kind = header[1].toLowerCase();
      sections.push({ path: header[2].trim(), kind, diff: kind === "add" ? "@@\n" : "" });
    } else if (sections.length > 0 && !line.startsWith("*** ")) {
      sections[sections.length - 1].diff += `${line}\n`;
    }
  }
  return sections;
}

function lined(mark: string, text: unknown): string {
  if (typeof text !== "string" || text === "") return "";
  return text.replace(/\n$/, "").split("\n").map((l) => `${mark}${l}\n`).join("");
}
