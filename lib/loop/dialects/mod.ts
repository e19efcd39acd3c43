/**
 * The tool-call dialects that repair reads, as a table: the tokens each one's markup opens with
 * (anywhere in the text, outside code), or the start of a reply that is nothing but markup. The
 * stream holds text back from the same tokens (`_call_markup_holdback.ts`), so there is one list.
 */
import { DEEPSEEK_TAGS, deepseekCalls } from "./deepseek.ts";
import { harmonyCalls } from "./harmony.ts";
import { KIMI_TAGS, kimiCalls } from "./kimi.ts";
import { LLAMA_LEADS, llamaCalls, PYTHON_TAG } from "./llama.ts";
import { mistralCalls } from "./mistral.ts";
import { taggedCalls } from "./tagged.ts";
import type { Reader } from "./types.ts";

export { fencedCall } from "./fenced.ts";
export type { CallFormat, Found, ToolMap } from "./types.ts";

interface Dialect {
  /** Tokens that open the markup anywhere in the text. */
  tags: string[];
  /** Text that opens the markup only at the start of a reply (after space, and space after `{`). */
  leads?: string[];
  read: Reader;
}

const DIALECTS: Dialect[] = [
  { tags: ["<tool_call>"], read: taggedCalls },
  { tags: ["[TOOL_CALLS]"], read: (text, start) => mistralCalls(text, start) },
  { tags: ["<|start|>", "<|channel|>"], leads: ["to="], read: harmonyCalls },
  { tags: DEEPSEEK_TAGS, read: (text, start) => deepseekCalls(text, start) },
  { tags: KIMI_TAGS, read: (text, start) => kimiCalls(text, start) },
  { tags: [PYTHON_TAG], leads: LLAMA_LEADS, read: (text, start) => llamaCalls(text, start) },
];

/** Every token that opens call markup. */
export const CALL_TAGS: readonly string[] = DIALECTS.flatMap((d) => d.tags);
/** Every text that opens call markup at the start of a reply. */
export const CALL_LEADS: readonly string[] = DIALECTS.flatMap((d) => d.leads ?? []);

/** The start of a reply as leads are matched: no leading space, none after an opening `{`. */
export function leadForm(text: string): string {
  return text.trimStart().replace(/^\{\s+/, "{");
}

/** The reader of the markup a tag (or, at `start` of the reply, a lead) opens. */
export function readerAt(text: string, start: number): Reader | undefined {
  const lead = text.slice(0, start).trim() === "" ? leadForm(text.slice(start)) : "";
  return DIALECTS.find((d) =>
    d.tags.some((tag) => text.startsWith(tag, start)) ||
    (lead !== "" && d.leads?.some((l) => lead.startsWith(l)))
  )?.read;
}

/** Where markup may open in `text`: each tag, and the reply's first character. */
export function openings(text: string): number[] {
  const at = new Set<number>();
  const first = text.length - text.trimStart().length;
  if (CALL_LEADS.some((l) => leadForm(text).startsWith(l))) at.add(first);
  for (const tag of CALL_TAGS) {
    for (let i = text.indexOf(tag); i !== -1; i = text.indexOf(tag, i + 1)) at.add(i);
  }
  return [...at].sort((a, b) => a - b);
}
