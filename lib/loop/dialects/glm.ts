/**
 * GLM-4.5 / 4.6 / 4.7 (the chat template's tool-call section):
 *
 *     <tool_call>NAME
 *     <arg_key>KEY</arg_key>
 *     <arg_value>VALUE</arg_value>
 *     </tool_call>
 *
 * 4.7 writes the same without the line breaks; a missing `</arg_value>` ends at the next key.
 * The template writes string values as they are and other values as JSON, so a value is a string
 * unless the tool's schema gives its key another type and the value reads as that type (the
 * Qwen3-Coder rule, `typedValue`). A key without a value, a key given twice or stray text between
 * the pairs is not guessed at: the arguments stay raw and the model is told they could not be read.
 */
import { matchAt, paramTypes, skipSpace, typedValue } from "./_args.ts";
import type { TextCall, ToolMap } from "./types.ts";

const HEAD = /^\s*([A-Za-z0-9_.:-]+)\s*(?=<arg_key>|$)/;
const PAIR =
  /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(<\/arg_value>|(?=<arg_key>)|$)/;

/** Whether the inside of a `<tool_call>` is GLM's form rather than JSON or Qwen3-Coder XML. */
export function isGlmCall(inner: string): boolean {
  return HEAD.test(inner);
}

/** The call inside a GLM `<tool_call>`; `closed` when its `</tool_call>` came. */
export function glmCall(inner: string, tools: ToolMap, closed: boolean): TextCall | undefined {
  const head = HEAD.exec(inner);
  if (!head) return undefined;
  const name = head[1];
  const typeOf = paramTypes(tools, name);
  const body = inner.slice(head[0].length).trimEnd();
  if (!body && !closed) return undefined;
  const args: Record<string, unknown> = {};
  let at = 0;
  while (at < body.length) {
    const pair = matchAt(PAIR, body, at);
    const key = pair?.match[1].trim();
    const ended = pair && (pair.match[3] || closed || pair.end < body.length);
    if (!pair || !ended || !key || key in args) return { name, args: undefined, rawArgs: body };
    const value = pair.match[3] ? pair.match[2] : pair.match[2].replace(/\n$/, "");
    args[key] = typedValue(value, typeOf(key));
    at = skipSpace(body, pair.end);
  }
  return { name, args };
}
