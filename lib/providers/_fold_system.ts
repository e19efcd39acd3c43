/** System-role context on endpoints that take no system message there (Chat, Ollama). */
import type { Message } from "../model/message.ts";

/**
 * Without system messages at the endpoint, a system-role message joins the user message before
 * it, as a further part, so the prompt and the context sent with it stay one message.
 */
export function foldSystemMessages(messages: Message[], native: boolean): Message[] {
  if (native) return messages;
  const out: Message[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (message.role === "user" && message.systemRole && last?.role === "user") {
      out[out.length - 1] = { ...last, blocks: [...last.blocks, ...message.blocks] };
    } else {
      out.push(message);
    }
  }
  return out;
}
