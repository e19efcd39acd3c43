/**
 * A schema of `exec --json` lines, written from `@openai/codex-sdk` 0.163.0's TypeScript types
 * (`ThreadEvent`, `ThreadItem` in its `dist/index.d.ts`). Strict objects, so that a misspelled or
 * stray field fails. Two additions the Open Interpreter fork documents: the `declined` command
 * status and a web search's `action`.
 */
import * as z from "zod";

const id = z.string().regex(/^item_\d+$/);

const commandExecution = z.strictObject({
  id,
  type: z.literal("command_execution"),
  command: z.string(),
  aggregated_output: z.string(),
  exit_code: z.number().int().optional(),
  status: z.enum(["in_progress", "completed", "failed", "declined"]),
});

const fileChange = z.strictObject({
  id,
  type: z.literal("file_change"),
  changes: z.array(z.strictObject({
    path: z.string().startsWith("/"),
    kind: z.enum(["add", "delete", "update"]),
  })),
  status: z.enum(["completed", "failed"]),
});

const mcpToolCall = z.strictObject({
  id,
  type: z.literal("mcp_tool_call"),
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  result: z.strictObject({
    content: z.array(z.unknown()),
    _meta: z.unknown().optional(),
    structured_content: z.unknown(),
  }).optional(),
  error: z.strictObject({ message: z.string() }).optional(),
  status: z.enum(["in_progress", "completed", "failed"]),
});

const webSearch = z.strictObject({
  id,
  type: z.literal("web_search"),
  query: z.string(),
  action: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("search"), query: z.string() }),
    z.strictObject({ type: z.literal("open_page"), url: z.string() }),
    z.strictObject({ type: z.literal("other") }),
  ]).optional(),
});

/** `ThreadItem`. */
const threadItemSchema = z.discriminatedUnion("type", [
  z.strictObject({ id, type: z.literal("agent_message"), text: z.string() }),
  z.strictObject({ id, type: z.literal("reasoning"), text: z.string() }),
  commandExecution,
  fileChange,
  mcpToolCall,
  webSearch,
  z.strictObject({
    id,
    type: z.literal("todo_list"),
    items: z.array(z.strictObject({ text: z.string(), completed: z.boolean() })),
  }),
  z.strictObject({ id, type: z.literal("error"), message: z.string() }),
]);

const count = z.number().int().min(0);

/** `ThreadEvent`. */
const threadEventSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("thread.started"), thread_id: z.uuid() }),
  z.strictObject({ type: z.literal("turn.started") }),
  z.strictObject({
    type: z.literal("turn.completed"),
    usage: z.strictObject({
      input_tokens: count,
      cached_input_tokens: count,
      cache_write_input_tokens: count,
      output_tokens: count,
      reasoning_output_tokens: count,
    }),
  }),
  z.strictObject({
    type: z.literal("turn.failed"),
    error: z.strictObject({ message: z.string() }),
  }),
  z.strictObject({ type: z.literal("item.started"), item: threadItemSchema }),
  z.strictObject({ type: z.literal("item.updated"), item: threadItemSchema }),
  z.strictObject({ type: z.literal("item.completed"), item: threadItemSchema }),
  z.strictObject({ type: z.literal("error"), message: z.string() }),
]);

/** A parsed event. */
export type ThreadEventLine = z.infer<typeof threadEventSchema>;

/**
 * Parses `exec --json` stdout: every line one JSON object matching the schema, in Codex's order
 * (`thread.started` first, `turn.started` before any item of the turn). Throws naming the line.
 */
export function parseEventLines(stdout: string): ThreadEventLine[] {
  const lines = stdout.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const events = lines.map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`stdout line ${i + 1} is not JSON: ${line}`);
    }
    const parsed = threadEventSchema.safeParse(value);
    if (!parsed.success) {
      throw new Error(
        `stdout line ${i + 1} does not match the SDK types: ${line}\n` +
          z.prettifyError(parsed.error),
      );
    }
    return parsed.data;
  });
  if (events[0]?.type !== "thread.started") throw new Error("thread.started is not first");
  return events;
}

/** The items of `item.completed` events, in order. */
export function completedItems(events: ThreadEventLine[]) {
  return events.flatMap((e) => e.type === "item.completed" ? [e.item] : []);
}
