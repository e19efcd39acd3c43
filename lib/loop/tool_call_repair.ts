/**
 * Tool-call repair: open models often write their tool calls into the reply text instead of
 * sending structured calls. These are recovered when they name a tool the harness advertises:
 *
 * - Hermes / Qwen: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`
 * - Qwen3-Coder: `<tool_call><function=NAME><parameter=KEY>value</parameter></function></tool_call>`
 * - a lone `{"name": …, "arguments": {…}}` object in a fenced code block
 * - Mistral: `[TOOL_CALLS][{"name": …, "arguments": …}]` or `[TOOL_CALLS]NAME[ARGS]{…}`
 *
 * The markup leaves the visible text and the calls become tool_call blocks, so the history is
 * replayed as structured calls on every wire. Markup inside code (a fence or backticks) is only
 * a mention, and a name the harness does not advertise leaves the text as it is. Arguments that
 * cannot be read unambiguously stay raw, so the model gets the harness's invalid-arguments error.
 */
import type { Block, ToolDeclaration } from "../model/message.ts";
import { balancedEnd, parseLooseJson } from "./_loose_json.ts";

/** The text formats recovered. */
export type CallFormat = "hermes" | "qwen_xml" | "fenced_json" | "mistral";

/** A reply with its recovered calls as blocks, and the format of each call. */
export interface RepairedReply {
  blocks: Block[];
  formats: CallFormat[];
}

type ToolCallBlock = Extract<Block, { type: "tool_call" }>;
type TextCall = Omit<ToolCallBlock, "type" | "id"> & { id?: string };
/** A stretch of text that holds calls. */
interface Found {
  start: number;
  end: number;
  format: CallFormat;
  calls: TextCall[];
}

/** Recovers tool calls written as text (see the module comment); undefined when there are none. */
export async function repairToolCalls(
  blocks: Block[],
  tools: ToolDeclaration[],
  newId: () => string = randomCallId,
): Promise<RepairedReply | undefined> {
  if (blocks.some((b) => b.type === "tool_call") || tools.length === 0) return undefined;
  const advertised = new Map(tools.map((t) => [t.name, t]));
  const out: Block[] = [];
  const formats: CallFormat[] = [];
  for (const block of blocks) {
    if (block.type !== "text") {
      out.push(block);
      continue;
    }
    const found = (await findCalls(block.text, advertised))
      .filter((f) => f.calls.every((c) => advertised.has(c.name)));
    if (found.length === 0) {
      out.push(block);
      continue;
    }
    const visible = found.reduceRight(
      (text, f) => text.slice(0, f.start) + text.slice(f.end),
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

/** Every stretch of `text` that holds calls, in order, not overlapping. */
async function findCalls(text: string, tools: Map<string, ToolDeclaration>): Promise<Found[]> {
  const code = codeSpans(text);
  const inCode = (i: number) => code.some((s) => i >= s.start && i < s.end);
  const found: Found[] = [];
  for (const fence of code.filter((s) => s.fence)) {
    const calls = await fencedCall(text.slice(fence.start, fence.end));
    if (calls) found.push({ ...fence, format: "fenced_json", calls });
  }
  for (const m of text.matchAll(/<tool_call>|\[TOOL_CALLS\]/g)) {
    if (inCode(m.index) || found.some((f) => m.index >= f.start && m.index < f.end)) continue;
    const hit = m[0] === "<tool_call>"
      ? await taggedCalls(text, m.index, tools)
      : await mistralCalls(text, m.index);
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

/** A fence whose whole content is one `{"name", "arguments"}` object. */
async function fencedCall(fence: string): Promise<TextCall[] | undefined> {
  const m =
    /^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:json|tool_call)?[ \t]*\n([\s\S]*?)\n?[ \t]*(?:`{3,}|~{3,})?[ \t]*$/i
      .exec(fence);
  const body = m?.[1].trim();
  if (!body?.startsWith("{") || balancedEnd(body, 0) !== body.length) return undefined;
  const call = await envelopeCall(body, { strictKeys: true });
  return call ? [call] : undefined;
}

/**
 * `<tool_call>…</tool_call>` at `start`: JSON objects (Hermes) or Qwen3-Coder XML. Without its
 * closing tag, the call ends where its JSON does (or, for XML, at the end of the text).
 */
async function taggedCalls(
  text: string,
  start: number,
  tools: Map<string, ToolDeclaration>,
): Promise<Found | undefined> {
  const open = start + "<tool_call>".length;
  const close = text.indexOf("</tool_call>", open);
  const innerEnd = close === -1 ? text.length : close;
  let end = close === -1 ? text.length : close + "</tool_call>".length;
  if (text.slice(open, innerEnd).trim().startsWith("<function=")) {
    const calls = xmlCalls(text.slice(open, innerEnd), tools);
    return calls.length ? { start, end, format: "qwen_xml", calls } : undefined;
  }
  const calls: TextCall[] = [];
  for (let at = skipSpace(text, open); at < innerEnd; at = skipSpace(text, at)) {
    if (text[at] !== "{") {
      if (close !== -1 || calls.length === 0) return undefined;
      end = at;
      break;
    }
    const stop = balancedEnd(text, at);
    const objectEnd = stop === -1 || stop > innerEnd ? innerEnd : stop;
    const call = await envelopeCall(text.slice(at, objectEnd).trimEnd(), {});
    if (!call) return undefined;
    calls.push(call);
    at = objectEnd;
  }
  return calls.length ? { start, end, format: "hermes", calls } : undefined;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

/** `[TOOL_CALLS]` at `start`: a JSON array or object of calls, or `NAME[CALL_ID]id[ARGS]{…}`. */
async function mistralCalls(text: string, start: number): Promise<Found | undefined> {
  const from = start + "[TOOL_CALLS]".length;
  const lead = text.slice(from).match(/^\s*/)![0].length;
  const at = from + lead;
  if (text[at] === "[" || text[at] === "{") {
    const stop = balancedEnd(text, at);
    const end = stop === -1 ? text.length : stop;
    const parsed = await parseLooseJson(text.slice(at, end));
    if (!("value" in parsed)) return undefined;
    const list = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    const calls: TextCall[] = [];
    for (const item of list) {
      const call = await envelopeCall(JSON.stringify(item), {});
      if (!call) return undefined;
      calls.push(call);
    }
    return calls.length ? { start, end, format: "mistral", calls } : undefined;
  }
  const m = /^([A-Za-z0-9_.-]+)(?:\[CALL_ID\]([A-Za-z0-9]+))?\[ARGS\]/.exec(text.slice(at));
  if (!m || text[at + m[0].length] !== "{") return undefined;
  const argsStart = at + m[0].length;
  const stop = balancedEnd(text, argsStart);
  const end = stop === -1 ? text.length : stop;
  const call = { name: m[1], ...await argsOf(text.slice(argsStart, end)) };
  return { start, end, format: "mistral", calls: [{ ...call, ...(m[2] ? { id: m[2] } : {}) }] };
}

const ENVELOPE_KEYS = new Set(["name", "arguments", "parameters", "id", "type"]);

/**
 * A `{"name": …, "arguments": …}` object (`parameters` also taken). With `strictKeys`, other
 * keys make it not a call. When the object cannot be read, the name and raw arguments are taken
 * from the text, so the model hears what was wrong with its call.
 */
async function envelopeCall(
  text: string,
  opts: { strictKeys?: boolean },
): Promise<TextCall | undefined> {
  const parsed = await parseLooseJson(text);
  if (!("value" in parsed)) {
    const m = /^\{\s*"name"\s*:\s*"([^"\\]+)"\s*,\s*"(?:arguments|parameters)"\s*:\s*/.exec(text);
    if (!m) return undefined;
    return { name: m[1], args: undefined, rawArgs: text.slice(m[0].length).replace(/\}\s*$/, "") };
  }
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.name !== "string" || !record.name) return undefined;
  if (opts.strictKeys && Object.keys(record).some((k) => !ENVELOPE_KEYS.has(k))) return undefined;
  const args = record.arguments ?? record.parameters;
  if (opts.strictKeys && args === undefined) return undefined;
  if (typeof args === "string") return { name: record.name, ...await argsOf(args) };
  if (args === undefined || isObject(args)) return { name: record.name, args: args ?? {} };
  return { name: record.name, args: undefined, rawArgs: JSON.stringify(args) };
}

/** Arguments from their JSON text; kept raw (and so reported) when they cannot be read. */
async function argsOf(text: string): Promise<Pick<TextCall, "args" | "rawArgs">> {
  const parsed = await parseLooseJson(text);
  return "value" in parsed && isObject(parsed.value)
    ? { args: parsed.value }
    : { args: undefined, rawArgs: text };
}

/**
 * Qwen3-Coder calls: `<function=NAME>` with `<parameter=KEY>value</parameter>` entries (a
 * missing `</parameter>` ends at the next parameter). Values take the declared parameter type.
 */
function xmlCalls(inner: string, tools: Map<string, ToolDeclaration>): TextCall[] {
  const calls: TextCall[] = [];
  for (const fn of inner.matchAll(/<function=([^>\s]+)>([\s\S]*?)(?:<\/function>|$(?![\s\S]))/g)) {
    const props = tools.get(fn[1])?.parameters.properties as Record<string, { type?: unknown }>;
    const args: Record<string, unknown> = {};
    for (const part of fn[2].split("<parameter=").slice(1)) {
      const close = part.indexOf(">");
      if (close === -1) continue;
      const key = part.slice(0, close).trim();
      const raw = part.slice(close + 1).split("</parameter>")[0].replace(/^\n/, "").replace(
        /\n$/,
        "",
      );
      args[key] = typedValue(raw, props?.[key]?.type);
    }
    calls.push({ name: fn[1], args });
  }
  return calls;
}

/** A parameter value as its declared JSON Schema type, or as written when it is not one. */
function typedValue(raw: string, type: unknown): unknown {
  if (type === "string") return raw;
  const text = raw.trim();
  if (type === "integer" || type === "number") {
    const n = Number(text);
    return text !== "" && Number.isFinite(n) ? n : raw;
  }
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : raw;
  try {
    return JSON.parse(text);
  } catch {
    return raw;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Nine letters and digits: the id form every wire takes (Mistral's endpoints insist on it). */
export function randomCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join("");
}
