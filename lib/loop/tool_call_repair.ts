/**
 * Tool-call repair: open models often write their tool calls into the reply text instead of
 * sending structured calls, usually because the server did not parse the model's own markup.
 * These are recovered when they name a tool the harness advertises (one file per dialect under
 * `dialects/`):
 *
 * - Hermes / Qwen: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`
 * - Qwen3-Coder: `<tool_call><function=NAME><parameter=KEY>value</parameter></function></tool_call>`
 * - GLM-4.5/4.6/4.7: `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>value</arg_value></tool_call>`
 * - a lone `{"name": …, "arguments": {…}}` object in a fenced code block
 * - Mistral: `[TOOL_CALLS][{"name": …, "arguments": …}]` or `[TOOL_CALLS]NAME[ARGS]{…}`
 * - gpt-oss harmony: `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`
 * - DeepSeek: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (and V3's fenced form)
 * - Llama 3.x: `<|python_tag|>{"name": …, "parameters": {…}}`, or such objects as the whole reply
 * - Kimi K2: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`
 *
 * The markup leaves the visible text and the calls become tool_call blocks, so the history is
 * replayed as structured calls on every wire. Markup inside code (a fence or backticks) is only
 * a mention, and a name the harness does not advertise leaves the text as it is. Arguments that
 * cannot be read unambiguously stay raw, so the model gets the harness's invalid-arguments error.
 */
import type { Block, ToolDeclaration } from "../model/message.ts";
import {
  type CallFormat,
  fencedCall,
  type Found,
  openings,
  readerAt,
  type ToolMap,
} from "./dialects/mod.ts";

/** A reply with its recovered calls as blocks, and the format of each call. */
export interface RepairedReply {
  blocks: Block[];
  formats: CallFormat[];
}

/** Recovers tool calls written as text (see the module comment); undefined when there are none. */
export async function repairToolCalls(
  blocks: Block[],
  tools: ToolDeclaration[],
  newId: () => string = randomCallId,
): Promise<RepairedReply | undefined> {
  if (blocks.some((b) => b.type === "tool_call") || tools.length === 0) return undefined;
  const advertised: ToolMap = new Map(tools.map((t) => [t.name, t]));
  const out: Block[] = [];
  const formats: CallFormat[] = [];
  for (const block of blocks) {
    const found = block.type === "text"
      ? (await findCalls(block.text, advertised))
        .filter((f) => f.calls.every((c) => advertised.has(c.name)))
      : [];
    if (block.type !== "text" || !found.some((f) => f.calls.length)) {
      out.push(block);
      continue;
    }
    const thinking = found.flatMap((f) => f.thinking ? [f.thinking] : []).join("\n\n");
    if (thinking) out.push({ type: "thinking", text: thinking });
    const visible = found.reduceRight(
      (text, f) => text.slice(0, f.start) + (f.keep ?? "") + text.slice(f.end),
      block.text,
    ).trimEnd();
    if (visible.trim()) out.push({ ...block, text: visible });
    for (const f of found) {
      for (const call of f.calls) {
        out.push({ type: "tool_call", ...call, id: call.id ?? newId() });
        formats.push(f.format);
      }
    }
  }
  return formats.length ? { blocks: out, formats } : undefined;
}

/** Every stretch of `text` that holds calls or their markup, in order, not overlapping. */
async function findCalls(text: string, tools: ToolMap): Promise<Found[]> {
  const code = codeSpans(text);
  const found: Found[] = [];
  for (const fence of code.filter((s) => s.fence)) {
    const calls = await fencedCall(text.slice(fence.start, fence.end));
    if (calls) found.push({ ...fence, format: "fenced_json", calls });
  }
  const taken = (i: number) => [...code, ...found].some((s) => i >= s.start && i < s.end);
  for (const at of openings(text)) {
    if (taken(at)) continue;
    const hit = await readerAt(text, at)?.(text, at, tools);
    if (hit) found.push(hit);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Fenced code blocks and inline code spans. */
function codeSpans(text: string): Array<{ start: number; end: number; fence: boolean }> {
  const spans: Array<{ start: number; end: number; fence: boolean }> = [];
  const fences = /^[ \t]*(`{3,}|~{3,})[^\n]*\n(?:[\s\S]*?^[ \t]*\1[ \t]*$|[\s\S]*)/gm;
  for (const m of text.matchAll(fences)) {
    spans.push({ start: m.index, end: m.index + m[0].length, fence: true });
  }
  for (const m of text.matchAll(/`[^`\n]+`/g)) {
    if (!spans.some((s) => m.index >= s.start && m.index < s.end)) {
      spans.push({ start: m.index, end: m.index + m[0].length, fence: false });
    }
  }
  return spans;
}

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Nine letters and digits: the id form every wire takes (Mistral's endpoints insist on it). */
export function randomCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join("");
}
