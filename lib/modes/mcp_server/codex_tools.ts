/**
 * The two tools `interpreter mcp-server` offers, `codex` and `codex-reply`, declared exactly as
 * the Codex MCP server declares them (names, titles, kebab-case argument names, types, enums,
 * required lists, output schema) so that its clients work unchanged; the descriptions are ours.
 * Also the checks of their arguments.
 */
import * as z from "zod";
import { APPROVAL_POLICIES, SANDBOX_MODES } from "../../config/schema.ts";
import { isSessionId } from "../../session/saved_sessions.ts";

/** Both tools answer `{threadId, content}` as structured content. */
const OUTPUT_SCHEMA = {
  type: "object",
  properties: { threadId: { type: "string" }, content: { type: "string" } },
  required: ["threadId", "content"],
};

/** One tool as `tools/list` returns it. */
export interface ToolDeclaration {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required: string[] };
  outputSchema: typeof OUTPUT_SCHEMA;
}

/** The `codex` tool: runs a whole task in a new session. */
export const CODEX_TOOL: ToolDeclaration = {
  name: "codex",
  title: "Codex",
  description: "Start an agent session on a task and wait for its final answer. " +
    "Optional arguments choose the model, profile, working directory, sandbox, approval policy " +
    "and config values for this session.",
  inputSchema: {
    type: "object",
    properties: {
      "approval-policy": {
        description: "When commands the model runs need the client's approval: " +
          "`untrusted`, `on-failure`, `on-request` or `never`.",
        enum: [...APPROVAL_POLICIES],
        type: "string",
      },
      "base-instructions": {
        description: "A system prompt to use in place of the built-in one.",
        type: "string",
      },
      "compact-prompt": {
        description: "The prompt used to summarize the conversation when it is compacted.",
        type: "string",
      },
      config: {
        additionalProperties: true,
        description: "Config values for this session by dotted key path, over those of " +
          'config.toml (e.g. {"model_reasoning_effort": "high"}).',
        type: "object",
      },
      cwd: {
        description: "The session's working directory; a relative path is taken from the " +
          "server's working directory.",
        type: "string",
      },
      "developer-instructions": {
        description: "Extra instructions given to the model with the first prompt.",
        type: "string",
      },
      model: {
        description: "The model to use instead of the configured one.",
        type: "string",
      },
      profile: {
        description: "A [profiles.NAME] table of config.toml to take default values from.",
        type: "string",
      },
      prompt: {
        description: "The task: the first user message of the session.",
        type: "string",
      },
      sandbox: {
        description: "Where commands may write: `read-only`, `workspace-write` or " +
          "`danger-full-access`.",
        enum: [...SANDBOX_MODES],
        type: "string",
      },
    },
    required: ["prompt"],
  },
  outputSchema: OUTPUT_SCHEMA,
};

/** The `codex-reply` tool: the next prompt of a session `codex` started. */
export const CODEX_REPLY_TOOL: ToolDeclaration = {
  name: "codex-reply",
  title: "Codex Reply",
  description: "Send the next prompt to a session a codex call started, by its thread id, " +
    "and wait for the answer.",
  inputSchema: {
    type: "object",
    properties: {
      conversationId: {
        description: "Deprecated name of threadId.",
        type: "string",
      },
      prompt: {
        description: "The next user message of the session.",
        type: "string",
      },
      threadId: {
        description: "The threadId a codex call returned. Required; conversationId is still " +
          "accepted in its place for older clients.",
        type: "string",
      },
    },
    required: ["prompt"],
  },
  outputSchema: OUTPUT_SCHEMA,
};

/** The arguments of a `codex` call. Unknown arguments are ignored, as Codex does. */
const codexArgsSchema = z.object({
  prompt: z.string(),
  model: z.string().nullish(),
  profile: z.string().nullish(),
  cwd: z.string().nullish(),
  "approval-policy": z.enum(APPROVAL_POLICIES).nullish(),
  sandbox: z.enum(SANDBOX_MODES).nullish(),
  config: z.record(z.string(), z.unknown()).nullish(),
  "base-instructions": z.string().nullish(),
  "developer-instructions": z.string().nullish(),
  "compact-prompt": z.string().nullish(),
});

/** The checked arguments of a `codex` call. */
export type CodexArgs = z.infer<typeof codexArgsSchema>;

const replyArgsSchema = z.object({
  prompt: z.string(),
  threadId: z.string().nullish(),
  conversationId: z.string().nullish(),
});

/** The checked arguments of a `codex-reply` call: the prompt and the thread to continue. */
export interface ReplyArgs {
  prompt: string;
  threadId: string;
}

/** A tool's arguments that do not fit its schema: what is wrong, for the client. */
export class ToolArgumentsError extends Error {}

/** Checks a `codex` call's arguments. */
export function parseCodexArgs(args: unknown): CodexArgs {
  return checked(codexArgsSchema, args, "codex");
}

/** Checks a `codex-reply` call's arguments; `threadId` falls back to `conversationId`. */
export function parseReplyArgs(args: unknown): ReplyArgs {
  const parsed = checked(replyArgsSchema, args, "codex-reply");
  const threadId = parsed.threadId ?? parsed.conversationId;
  if (!threadId) {
    throw new ToolArgumentsError(
      'Cannot continue a session without its id: pass "threadId" (the threadId a codex call ' +
        "returned)",
    );
  }
  if (!isSessionId(threadId)) {
    throw new ToolArgumentsError(
      `Cannot continue thread ${JSON.stringify(threadId)}: it is no thread id; pass the ` +
        "threadId a codex call returned (a UUID), never a file path",
    );
  }
  return { prompt: parsed.prompt, threadId };
}

function checked<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  throw new ToolArgumentsError(
    `Cannot read the arguments of "${tool}": ${z.prettifyError(result.error)}`,
  );
}
