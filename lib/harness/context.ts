/**
 * Puts a harness's context where its vendor puts it: system parts, developer messages, a user
 * item before the first prompt, `<system-reminder>` parts of the first user message, a system
 * message after it, a reminder after every prompt, or a prefix of every prompt.
 */
import { type Block, type Message, type SystemPart, systemText } from "../model/message.ts";
import { fillPromptVariables, promptValues } from "./prompt.ts";
import type { ContextEntry, Harness, PromptVars } from "./types.ts";

/** A harness's context with the session's values filled in. */
export interface SessionContext {
  system: SystemPart[];
  /** User items before the first prompt. */
  before: Message[];
  /** Parts at the front of the first user message. */
  firstUser: Block[];
  /** System-role messages right after the first user message. */
  after: Message[];
  /** Texts sent as a user message after every prompt. */
  everyUser: Block[];
  /** Text put before every prompt. */
  turnPrefix: string;
  /** The first prompt's template, split where the prompt goes. */
  around?: { before: Block[]; after: Block[] };
}

/** Renders every context entry of `h` whose `when` variable is not empty. */
export function renderContext(h: Harness, vars: PromptVars): SessionContext {
  const out = emptyContext();
  const values = promptValues(h, vars);
  for (const entry of h.context) {
    if (entry.when && !entry.when.some((name) => String(values[name] ?? "").trim())) continue;
    // Empty variables leave runs of blank lines; one blank line is enough.
    const text = fillPromptVariables(entry.text, h, values).replace(/\n{3,}/g, "\n\n").trim();
    if (!text) continue;
    const block = contextBlock(text, entry);
    switch (entry.slot) {
      case "system":
      case "developer":
        // A system entry with `samePart` ends the system text before it (pi's one system block).
        if (entry.slot === "system" && entry.samePart && out.system.at(-1)?.slot === "system") {
          const last = out.system[out.system.length - 1];
          out.system[out.system.length - 1] = { ...last, text: `${last.text}\n\n${text}` };
          break;
        }
        out.system.push({
          text,
          slot: entry.slot,
          ...(entry.cache ? { cache: true } : {}),
          ...(entry.samePart ? { samePart: true } : {}),
        });
        break;
      case "user_item":
        out.before.push({ role: "user", blocks: [block] });
        break;
      case "first_user":
        joinOrPush(out.firstUser, block, entry.samePart);
        break;
      case "system_message":
        out.after.push({ role: "user", blocks: [block], systemRole: true });
        break;
      case "every_user":
        out.everyUser.push(block);
        break;
      case "turn_prefix":
        out.turnPrefix += `${text}\n`;
        break;
      case "first_prompt": {
        const [before, after] = text.split(/\{\{\s*prompt\s*\}\}/).map((t) => t.trim());
        const part = (t: string) => t ? [contextBlock(t, entry)] : [];
        out.around = { before: part(before), after: part(after ?? "") };
        break;
      }
    }
  }
  return out;
}

function contextBlock(text: string, entry: ContextEntry): Block {
  return { type: "text", text, context: true, ...(entry.cache ? { cache: true } : {}) };
}

/**
 * Adds `block` to the first user message's parts; with `samePart` its text ends the part before
 * it instead, on a new line (Gemini CLI's one `<session_context>` part built from several entries).
 */
function joinOrPush(blocks: Block[], block: Block, samePart: boolean): void {
  const last = blocks.at(-1);
  if (samePart && last?.type === "text" && block.type === "text") {
    blocks[blocks.length - 1] = { ...last, text: `${last.text}\n${block.text}` };
  } else {
    blocks.push(block);
  }
}

/**
 * The messages one prompt adds to the history: on the first prompt the opening context around
 * it, on every prompt the turn prefix and the after-every-prompt reminder.
 */
export function promptMessages(ctx: SessionContext, prompt: Block[], first: boolean): Message[] {
  const blocks: Block[] = [...(first ? ctx.firstUser : [])];
  if (first && ctx.around) blocks.push(...ctx.around.before);
  if (ctx.turnPrefix) blocks.push({ type: "text", text: ctx.turnPrefix.trimEnd(), context: true });
  blocks.push(...prompt);
  if (first && ctx.around) blocks.push(...ctx.around.after);
  const messages: Message[] = first ? [...ctx.before] : [];
  messages.push({ role: "user", blocks });
  if (first) messages.push(...ctx.after);
  for (const block of ctx.everyUser) messages.push({ role: "user", blocks: [block] });
  return messages;
}

/** The history without any harness's context: what a switch to another harness starts from. */
export function withoutContext(messages: Message[]): Message[] {
  return messages.flatMap((m): Message[] => {
    if (m.role !== "user") return [m];
    if (m.systemRole) return [];
    const blocks = m.blocks.filter((b) => b.type !== "text" || !b.context);
    if (blocks.length === 0) return [];
    return [blocks.length === m.blocks.length ? m : { ...m, blocks }];
  });
}

/** A context of one system part and nothing else (a review's own instructions). */
export function bareContext(system: string): SessionContext {
  return { ...emptyContext(), system: systemText(system) };
}

function emptyContext(): SessionContext {
  return { system: [], before: [], firstUser: [], after: [], everyUser: [], turnPrefix: "" };
}

/**
 * `messages` (a history without context) with the opening context put around its first user
 * message, as if the conversation had started under this context.
 */
export function withOpeningContext(ctx: SessionContext, messages: Message[]): Message[] {
  const first = messages.findIndex((m) => m.role === "user");
  if (first < 0) return messages;
  const prompt = messages[first] as Message & { role: "user" };
  return [
    ...messages.slice(0, first),
    ...ctx.before,
    {
      ...prompt,
      blocks: [
        ...ctx.firstUser,
        ...ctx.around?.before ?? [],
        ...prompt.blocks,
        ...ctx.around?.after ?? [],
      ],
    },
    ...ctx.after,
    ...messages.slice(first + 1),
  ];
}
