/**
 * Llama 3.1 / 3.2 / 3.3 JSON tool calls. The chat template asks for
 * `{"name": NAME, "parameters": {…}}` and writes past calls that way; models also write
 * `{"type": "function", "name": …, "parameters": …}`, open on `<|python_tag|>`, and put several
 * calls in a row separated by `;`:
 *
 *     <|python_tag|>{"name": "NAME", "parameters": {…}}; {"name": …, "parameters": …}<|eom_id|>
 *
 * Without `<|python_tag|>` the objects must be the whole reply and hold nothing but the call
 * (`name`, `parameters` or `arguments`, `type: "function"`), so JSON a model shows the user is
 * left alone. After `<|python_tag|>` (code for the built-in interpreter) nothing is read.
 */
import { balancedEnd } from "../_loose_json.ts";
import { envelopeCall, skipSpace } from "./_args.ts";
import type { Found, TextCall } from "./types.ts";

export const PYTHON_TAG = "<|python_tag|>";
/** How a whole reply of calls starts (after `{`, space is ignored). */
export const LLAMA_LEADS = ['{"name"', '{"type"'];
const END_TOKENS = /^\s*<\|(?:eom_id|eot_id)\|>/;

/** The calls after the `<|python_tag|>` at `start`, or the whole reply when it opens on `{`. */
export async function llamaCalls(text: string, start: number): Promise<Found | undefined> {
  const tagged = text.startsWith(PYTHON_TAG, start);
  const read = await objects(text, skipSpace(text, tagged ? start + PYTHON_TAG.length : start), {
    strictKeys: !tagged,
  });
  if (!read) return undefined;
  const token = END_TOKENS.exec(text.slice(read.end));
  const end = token ? read.end + token[0].length : read.end;
  if (!tagged && text.slice(end).trim()) return undefined;
  return { start, end, format: "llama", calls: read.calls };
}

/** JSON call objects from `at`, separated by `;`; undefined when one is not a call. */
async function objects(
  text: string,
  at: number,
  opts: { strictKeys: boolean },
): Promise<{ calls: TextCall[]; end: number } | undefined> {
  const calls: TextCall[] = [];
  let end = at;
  while (text[at] === "{") {
    const stop = balancedEnd(text, at);
    end = stop === -1 ? text.length : stop;
    const call = await envelopeCall(text.slice(at, end).trimEnd(), opts);
    if (!call) return undefined;
    calls.push(call);
    const next = /^\s*;?\s*/.exec(text.slice(end))![0].length;
    at = end + next;
  }
  return calls.length ? { calls, end } : undefined;
}
