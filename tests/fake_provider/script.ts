/**
 * The fake provider's script: one turn per model request, written once and rendered into
 * whichever wire format (chat, responses, messages) the client asks for.
 *
 * A JSONL script has one turn per line; blank lines and lines starting with `//` are skipped.
 */
import * as z from "zod";

const toolCallSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  /** Sent as the call id on every wire; generated (`call_1`, `toolu_1`) when absent. */
  id: z.string().regex(/^[A-Za-z0-9_-]+$/).optional(),
  /** Responses: a freeform (custom) tool call with this raw input; `args` is then ignored. */
  input: z.string().optional(),
  /** Responses: the namespace a function call names (`clock`). */
  namespace: z.string().optional(),
});

const usageSchema = z.strictObject({
  /** All prompt tokens, cached ones included (Messages reports `input_tokens` minus cached). */
  input_tokens: z.int().min(0).optional(),
  output_tokens: z.int().min(0).optional(),
  cached_tokens: z.int().min(0).optional(),
  reasoning_tokens: z.int().min(0).optional(),
});

const replySchema = z.strictObject({
  text: z.string().optional(),
  thinking: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  /**
   * Responses: searches the server ran (hosted `web_search`), one `web_search_call` item per
   * query before the text; other wires have no such item and send none.
   */
  web_searches: z.array(z.string().min(1)).optional(),
  /** Overrides the stop reason derived from the reply (tool calls → "tool_calls", else "end_turn"). */
  stop: z.enum(["end_turn", "tool_calls", "max_tokens"]).optional(),
  /**
   * The model declines with this text: a Chat `refusal` delta, a Responses `refusal` content
   * part, Messages text with `stop_reason: "refusal"`. Not with text, tool calls or stop.
   */
  refusal: z.string().min(1).optional(),
  /** Overrides the token counts; the defaults are derived from request and reply sizes. */
  usage: usageSchema.optional(),
});

const expectSchema = z.strictObject({
  /** The most recent tool result in the request contains this text. */
  last_tool_result_contains: z.string().optional(),
  /** The system prompt (system or developer messages, `instructions`, `system`) contains this. */
  system_contains: z.string().optional(),
  /** The request advertises tools with at least these names. */
  tools_include: z.array(z.string()).optional(),
  /** The most recent user-written text (not a tool result) contains this. */
  user_contains: z.string().optional(),
});

const errorSchema = z.strictObject({
  status: z.int().min(400).max(599),
  /** Replaces the wire-shaped default error body. */
  body: z.record(z.string(), z.unknown()).optional(),
  /** Added to the response; `retry-after: 0` is sent unless overridden. */
  headers: z.record(z.string(), z.string()).optional(),
});

/** Schema of one script turn; exactly one of `reply` and `error`. */
const scriptTurnSchema = z
  .strictObject({
    expect: expectSchema.optional(),
    reply: replySchema.optional(),
    error: errorSchema.optional(),
  })
  .refine((turn) => (turn.reply === undefined) !== (turn.error === undefined), {
    message: 'A turn needs exactly one of "reply" and "error"',
  })
  .refine(({ reply: r }) => !r?.refusal || (!r.text && !r.tool_calls?.length && !r.stop), {
    message: 'A "refusal" reply cannot also have "text", "tool_calls" or "stop"',
  });

/** What the model says in one turn. */
export type ScriptReply = z.infer<typeof replySchema>;
/** Conditions the request that consumes the turn must meet. */
export type ScriptExpect = z.infer<typeof expectSchema>;
/** An HTTP error answer; the turn is consumed, so a client retry gets the next turn. */
export type ScriptError = z.infer<typeof errorSchema>;
/** One model request's worth of script. */
export type ScriptTurn = z.infer<typeof scriptTurnSchema>;

/** Validates turns given in code; throws a `TypeError` naming the bad turn. */
export function validateScript(turns: unknown[], source = "script"): ScriptTurn[] {
  return turns.map((turn, i) => parseTurn(turn, `${source} turn ${i + 1}`));
}

/** Parses JSONL text into turns; `source` names the text in error messages. */
export function parseScript(text: string, source = "script"): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  text.split("\n").forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("//")) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new TypeError(`Cannot parse "${source}" at line ${i + 1}: ${(error as Error).message}`);
    }
    turns.push(parseTurn(value, `"${source}" at line ${i + 1}`));
  });
  return turns;
}

/** Reads and parses a JSONL script file. */
export async function loadScript(path: string | URL): Promise<ScriptTurn[]> {
  return parseScript(await Deno.readTextFile(path), String(path));
}

function parseTurn(value: unknown, where: string): ScriptTurn {
  const result = scriptTurnSchema.safeParse(value);
  if (!result.success) {
    throw new TypeError(`Invalid turn in ${where}: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}
