/**
 * The session file format, version 2 (version 1 had no `history` record). One JSON object per line, UTF-8, each line ended by "\n":
 *
 *   {"type":"session","version":2,"id":"<uuid v7>","created":"<ISO UTC>","cwd":...}   header
 *   {"type":"user_message","ts":"<ISO UTC>","message":{"role":"user","blocks":[...]}}
 *   {"type":"assistant_message","ts":...,"message":{"role":"assistant",...}}          all blocks
 *   {"type":"tool_call","ts":...,"callId":...,"name":...,"args":...}                  dispatch began
 *   {"type":"tool_result","ts":...,"message":{"role":"tool_result",...}}
 *   {"type":"approval","ts":...,"callId":...,"decision":"approved",...}
 *   {"type":"model_switch","ts":...,"provider":...,"model":...}
 *   {"type":"harness_switch","ts":...,"harness":...}
 *   {"type":"settings","ts":...,"sandboxMode":...,"approvalPolicy":...,"planMode":...}
 *   {"type":"compaction","ts":...,"messages":[...]}                 replaces the history before it
 *   {"type":"history","ts":...,"messages":[...]}     the same, for any other change (a harness
 *                                                   switch's translation, a rewind)
 *   {"type":"tool_state","ts":...,"state":{"version":1,...}}      tools' session data; last wins
 *   {"type":"checkpoint","ts":...,"checkpoint":{"turn":1,...}}  a turn's files, for /undo, /rewind
 *
 * The history the loop continues from is the user, assistant and tool result messages in file
 * order, restarted at each compaction or history record (see `history.ts`); a `tool_state` line is not part of it
 * but a whole snapshot of the tools' saved data (todos, loaded tools, read records), of which a
 * resume takes the last (`toolState` of `readSession`). Lines are only ever appended; a reader
 * skips an incomplete last line. A change to this format bumps `SESSION_FORMAT_VERSION`.
 */
import * as z from "zod";
import type { Block, Message, Usage } from "../model/message.ts";

/** The format version this build writes, and the newest it reads. */
export const SESSION_FORMAT_VERSION = 2;

const blockSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("text"),
    text: z.string(),
    context: z.boolean().optional(),
    cache: z.boolean().optional(),
    signature: z.string().optional(),
  }),
  z.object({
    type: z.literal("thinking"),
    text: z.string(),
    signature: z.string().optional(),
    encrypted: z.string().optional(),
    id: z.string().optional(),
  }),
  z.object({
    type: z.literal("tool_call"),
    id: z.string(),
    name: z.string(),
    args: z.unknown(),
    rawArgs: z.string().optional(),
    signature: z.string().optional(),
    namespace: z.string().optional(),
    freeform: z.boolean().optional(),
  }),
  z.object({ type: z.literal("image"), mime: z.string(), base64: z.string() }),
]);

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number(),
  reasoningTokens: z.number(),
});

const userMessageSchema = z.object({
  role: z.literal("user"),
  blocks: z.array(blockSchema),
  systemRole: z.boolean().optional(),
});
const assistantMessageSchema = z.object({
  role: z.literal("assistant"),
  blocks: z.array(blockSchema),
  stop: z.enum(["end_turn", "tool_calls", "max_tokens", "refusal", "error", "aborted"]),
  usage: usageSchema,
});
const toolResultMessageSchema = z.object({
  role: z.literal("tool_result"),
  callId: z.string(),
  name: z.string(),
  blocks: z.array(blockSchema),
  isError: z.boolean(),
});
const messageSchema = z.discriminatedUnion("role", [
  userMessageSchema,
  assistantMessageSchema,
  toolResultMessageSchema,
]);

const timestamp = z.iso.datetime({ offset: true });

/** Where a session was started. */
export type SessionOrigin = "repl" | "exec" | "acp";

/** The first line of a session file. */
export const sessionHeaderSchema = z.object({
  type: z.literal("session"),
  version: z.number().int().min(1),
  id: z.string().min(1),
  created: timestamp,
  cwd: z.string(),
  interpreterVersion: z.string(),
  model: z.string(),
  provider: z.string(),
  harness: z.string(),
  sandbox: z.string(),
  approval: z.string(),
  reasoningEffort: z.string().optional(),
  origin: z.enum(["repl", "exec", "acp"]),
});

/** The first line of a session file. */
export type SessionHeader = z.infer<typeof sessionHeaderSchema>;

/** One line after the header. Every event carries `ts`, the time it was written. */
export const sessionRecordSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user_message"), ts: timestamp, message: userMessageSchema }),
  z.object({
    type: z.literal("assistant_message"),
    ts: timestamp,
    message: assistantMessageSchema,
  }),
  z.object({
    type: z.literal("tool_call"),
    ts: timestamp,
    callId: z.string(),
    name: z.string(),
    args: z.unknown(),
  }),
  z.object({
    type: z.literal("tool_result"),
    ts: timestamp,
    message: toolResultMessageSchema,
    durationMs: z.number().optional(),
  }),
  z.object({
    type: z.literal("approval"),
    ts: timestamp,
    callId: z.string(),
    decision: z.enum(["approved", "approved_for_session", "denied", "aborted"]),
    note: z.string().optional(),
  }),
  z.object({
    type: z.literal("model_switch"),
    ts: timestamp,
    provider: z.string(),
    model: z.string(),
    reasoningEffort: z.string().optional(),
  }),
  z.object({ type: z.literal("harness_switch"), ts: timestamp, harness: z.string() }),
  z.object({
    type: z.literal("settings"),
    ts: timestamp,
    sandboxMode: z.string().optional(),
    approvalPolicy: z.string().optional(),
    planMode: z.boolean().optional(),
  }),
  z.object({
    type: z.literal("compaction"),
    ts: timestamp,
    messages: z.array(messageSchema),
    tokensBefore: z.number().optional(),
  }),
  z.object({ type: z.literal("history"), ts: timestamp, messages: z.array(messageSchema) }),
  z.object({
    type: z.literal("checkpoint"),
    ts: timestamp,
    // A turn's start or end, or a rewind: lib/session/checkpoints/checkpoints.ts's format, checked there.
    checkpoint: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal("tool_state"),
    ts: timestamp,
    // The tools' own format (lib/tools/session_state.ts), checked where it is restored.
    state: z.record(z.string(), z.unknown()),
  }),
]);

/** One line after the header. */
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

type WithOptionalTs<E> = E extends { ts: string } ? Omit<E, "ts"> & { ts?: string } : never;

/** An event as given to `SessionWriter.append()`: `ts` defaults to the time of the call. */
export type SessionRecordInput = WithOptionalTs<SessionRecord>;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

// A change to lib/model/message.ts fails type checking here until the schemas follow it.
const _blocksMatch: Equal<z.infer<typeof blockSchema>, Block> = true;
const _usageMatches: Equal<z.infer<typeof usageSchema>, Usage> = true;
const _messagesMatch: Equal<z.infer<typeof messageSchema>, Message> = true;
