/**
 * The optional first line of `exec` source, `// @exec: {"yield_time_ms": …, "max_output_tokens":
 * …}`, as Codex reads it (harnesses/native/CODE_MODE.md).
 */
import { ToolError } from "../../errors.ts";

const PREFIX = "// @exec:";
const FIELDS = ["yield_time_ms", "max_output_tokens"];

/** The source without its pragma line, and the pragma's settings. */
export interface ExecSource {
  code: string;
  yieldTimeMs?: number;
  maxOutputTokens?: number;
}

/** Reads `input`; a bad pragma or empty source is a ToolError saying what to send. */
export function parseExecSource(input: string): ExecSource {
  const hint =
    'Send JavaScript only, optionally after a first line `// @exec: {"yield_time_ms": 10000}`';
  if (input.trim() === "") throw new ToolError("exec needs JavaScript source; it got none", hint);
  const newline = input.indexOf("\n");
  const first = (newline < 0 ? input : input.slice(0, newline)).trimStart();
  if (!first.startsWith(PREFIX)) return { code: input };
  const rest = newline < 0 ? "" : input.slice(newline + 1);
  if (rest.trim() === "") throw new ToolError("the exec pragma line has no source after it", hint);
  let value: unknown;
  try {
    value = JSON.parse(first.slice(PREFIX.length).trim());
  } catch (error) {
    throw new ToolError(`the exec pragma is not JSON: ${(error as Error).message}`, hint);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToolError("the exec pragma must be a JSON object", hint);
  }
  const fields = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(fields)) {
    if (!FIELDS.includes(key)) {
      throw new ToolError(`the exec pragma has no field "${key}"`, `Use ${FIELDS.join(" or ")}`);
    }
    if (!Number.isSafeInteger(v) || (v as number) < 0) {
      throw new ToolError(`the exec pragma's ${key} must be a whole number of at least 0`, hint);
    }
  }
  return {
    code: rest,
    ...(fields.yield_time_ms !== undefined ? { yieldTimeMs: fields.yield_time_ms as number } : {}),
    ...(fields.max_output_tokens !== undefined
      ? { maxOutputTokens: fields.max_output_tokens as number }
      : {}),
  };
}
