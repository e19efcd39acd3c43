/** System-role context on endpoints that take no system message there (Chat, Ollama, some others). */
import type { Block, Message } from "../model/message.ts";

const OPEN = "<system-reminder>";
const CLOSE = "</system-reminder>";

/**
 * Without system messages at the endpoint, a system-role message joins the user message before
 * it as `<system-reminder>` parts, after that message's own context and before the user's text,
 * so the user's words end the message and the context never reads as theirs. A system-role
 * message with no user message before it becomes a user message of reminders.
 */
export function foldSystemMessages(messages: Message[], native: boolean): Message[] {
  if (native) return messages;
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role !== "user" || !message.systemRole) {
      out.push(message);
      continue;
    }
    const reminders = message.blocks.map(asReminder);
    const last = out.at(-1);
    if (last?.role === "user") {
      out[out.length - 1] = { ...last, blocks: beforeUserText(last.blocks, reminders) };
    } else {
      out.push({ role: "user", blocks: reminders });
    }
  }
  return out;
}

function asReminder(block: Block): Block {
  if (block.type !== "text" || block.text.trimStart().startsWith(OPEN)) return block;
  return { ...block, text: `${OPEN}\n${block.text}\n${CLOSE}` };
}

/** `blocks` with `reminders` after its leading context parts, before the first part the user wrote. */
function beforeUserText(blocks: Block[], reminders: Block[]): Block[] {
  const first = blocks.findIndex((b) => b.type !== "text" || !b.context);
  const at = first < 0 ? blocks.length : first;
  return [...blocks.slice(0, at), ...reminders, ...blocks.slice(at)];
}
