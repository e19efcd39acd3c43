/**
 * What the dialects share: the `{"name", "arguments"}` envelope, arguments from JSON text, and
 * XML-like values typed by the tool's schema. Arguments that cannot be read unambiguously stay
 * raw (`rawArgs`), so the model gets the harness's invalid-arguments error instead of a guess.
 */
import { parseLooseJson } from "../_loose_json.ts";
import type { TextCall, ToolMap } from "./types.ts";

const ENVELOPE_KEYS = new Set(["name", "arguments", "parameters", "id", "type"]);

/**
 * A `{"name": …, "arguments": …}` object (`parameters` also taken). With `strictKeys`, other
 * keys, a `type` other than `"function"` or missing arguments make it not a call. When the
 * object cannot be read, the name and raw arguments are taken from the text, so the model hears
 * what was wrong with its call.
 */
export async function envelopeCall(
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
  if (!isObject(value) || typeof value.name !== "string" || !value.name) return undefined;
  if (opts.strictKeys && !strictEnvelope(value)) return undefined;
  const args = value.arguments ?? value.parameters;
  if (typeof args === "string") return { name: value.name, ...await argsOf(args) };
  if (args === undefined || isObject(args)) return { name: value.name, args: args ?? {} };
  return { name: value.name, args: undefined, rawArgs: JSON.stringify(args) };
}

function strictEnvelope(record: Record<string, unknown>): boolean {
  return Object.keys(record).every((k) => ENVELOPE_KEYS.has(k)) &&
    (record.arguments ?? record.parameters) !== undefined &&
    (record.type === undefined || record.type === "function");
}

/** Arguments from their JSON text; kept raw (and so reported) when they cannot be read. */
export async function argsOf(text: string): Promise<Pick<TextCall, "args" | "rawArgs">> {
  const parsed = await parseLooseJson(text);
  return "value" in parsed && isObject(parsed.value)
    ? { args: parsed.value }
    : { args: undefined, rawArgs: text };
}

/** The declared JSON Schema type of each parameter of `name`, when it is advertised. */
export function paramTypes(tools: ToolMap, name: string): (key: string) => unknown {
  const props = tools.get(name)?.parameters.properties as
    | Record<string, { type?: unknown }>
    | undefined;
  return (key) => props?.[key]?.type;
}

/** A parameter value as its declared JSON Schema type, or as written when it is not one. */
export function typedValue(raw: string, type: unknown): unknown {
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

export function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

/** `pattern` matched at `at` exactly (a sticky copy, so no shared `lastIndex`), and its end. */
export function matchAt(
  pattern: RegExp,
  text: string,
  at: number,
): { match: RegExpExecArray; end: number } | undefined {
  const sticky = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "") + "y");
  sticky.lastIndex = at;
  const match = sticky.exec(text);
  return match ? { match, end: sticky.lastIndex } : undefined;
}
