/** Mistral: `[TOOL_CALLS][{"name": …, "arguments": …}]` or `[TOOL_CALLS]NAME[CALL_ID]id[ARGS]{…}`. */
import { balancedEnd, parseLooseJson } from "../_loose_json.ts";
import { argsOf, envelopeCall } from "./_args.ts";
import type { Found, TextCall } from "./types.ts";

const OPEN = "[TOOL_CALLS]";

/** The `[TOOL_CALLS]` at `start`: a JSON array or object of calls, or the `[ARGS]` form. */
export async function mistralCalls(text: string, start: number): Promise<Found | undefined> {
  const from = start + OPEN.length;
  const at = from + text.slice(from).match(/^\s*/)![0].length;
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
