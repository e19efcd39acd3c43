/**
 * `<tool_call>…</tool_call>`, which three families share: JSON objects (Hermes, Qwen2.5/3),
 * `<function=NAME><parameter=KEY>…` (Qwen3-Coder) and `NAME<arg_key>…` (GLM, `glm.ts`).
 * Without its closing tag, a call ends where its JSON does (or, for the XML forms, at the end of
 * the text).
 */
import { balancedEnd } from "../_loose_json.ts";
import { envelopeCall, paramTypes, skipSpace, typedValue } from "./_args.ts";
import { glmCall, isGlmCall } from "./glm.ts";
import type { Found, TextCall, ToolMap } from "./types.ts";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

/** The `<tool_call>` opening at `start` (see the module comment). */
export async function taggedCalls(
  text: string,
  start: number,
  tools: ToolMap,
): Promise<Found | undefined> {
  const open = start + OPEN.length;
  const close = text.indexOf(CLOSE, open);
  const innerEnd = close === -1 ? text.length : close;
  const end = close === -1 ? text.length : close + CLOSE.length;
  const inner = text.slice(open, innerEnd);
  if (inner.trim().startsWith("<function=")) {
    const calls = xmlCalls(inner, tools);
    return calls.length ? { start, end, format: "qwen_xml", calls } : undefined;
  }
  if (isGlmCall(inner)) {
    const call = glmCall(inner, tools, close !== -1);
    return call && { start, end, format: "glm", calls: [call] };
  }
  return await jsonCalls(text, start, { open, close, innerEnd, end });
}

/** Hermes: one or more JSON objects between the tags. */
async function jsonCalls(
  text: string,
  start: number,
  at: { open: number; close: number; innerEnd: number; end: number },
): Promise<Found | undefined> {
  const calls: TextCall[] = [];
  let end = at.end;
  for (let i = skipSpace(text, at.open); i < at.innerEnd; i = skipSpace(text, i)) {
    if (text[i] !== "{") {
      if (at.close !== -1 || calls.length === 0) return undefined;
      end = i;
      break;
    }
    const stop = balancedEnd(text, i);
    const objectEnd = stop === -1 || stop > at.innerEnd ? at.innerEnd : stop;
    const call = await envelopeCall(text.slice(i, objectEnd).trimEnd(), {});
    if (!call) return undefined;
    calls.push(call);
    i = objectEnd;
  }
  return calls.length ? { start, end, format: "hermes", calls } : undefined;
}

/**
 * Qwen3-Coder calls: `<function=NAME>` with `<parameter=KEY>value</parameter>` entries (a
 * missing `</parameter>` ends at the next parameter). Values take the declared parameter type.
 */
function xmlCalls(inner: string, tools: ToolMap): TextCall[] {
  const calls: TextCall[] = [];
  for (const fn of inner.matchAll(/<function=([^>\s]+)>([\s\S]*?)(?:<\/function>|$(?![\s\S]))/g)) {
    const typeOf = paramTypes(tools, fn[1]);
    const args: Record<string, unknown> = {};
    for (const part of fn[2].split("<parameter=").slice(1)) {
      const close = part.indexOf(">");
      if (close === -1) continue;
      const key = part.slice(0, close).trim();
      const raw = part.slice(close + 1).split("</parameter>")[0].replace(/^\n/, "").replace(
        /\n$/,
        "",
      );
      args[key] = typedValue(raw, typeOf(key));
    }
    calls.push({ name: fn[1], args });
  }
  return calls;
}
