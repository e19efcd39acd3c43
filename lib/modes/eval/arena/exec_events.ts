/**
 * Live counts of a contestant's run, read from the `interpreter exec --json` lines it writes
 * (see ../../exec/exec_json_types.ts). The stream has no event per model request, so requests
 * are inferred: the turn's first, then one each time the model's output follows tool results.
 * Calls one reply made with nothing between them count as one request each; the final record,
 * read from the trajectory, has the exact numbers.
 */

/** The item kinds a tool call makes. */
const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

/** Counts tool calls and model requests from `exec --json` output, fed in chunks as it comes. */
export class ExecEventCounter {
  #partial = "";
  #toolCalls = 0;
  #requests = 0;
  #seen = new Set<string>();
  /** The last thing seen was a tool's result: the model's next output is a new request. */
  #afterTools = false;

  /** Adds a chunk of stdout; a line split across chunks is read once whole. */
  push(text: string): void {
    const lines = (this.#partial + text).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) this.#line(line);
  }

  get toolCalls(): number {
    return this.#toolCalls;
  }

  get requests(): number {
    return this.#requests;
  }

  #line(line: string): void {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return; // Not an event (a stray line): it counts for nothing.
    }
    if (!isRecord(event) || typeof event.type !== "string") return;
    if (event.type === "turn.started") {
      this.#requests++;
      this.#afterTools = false;
    } else if (event.type === "turn.completed" && this.#afterTools) {
      this.#requests++;
      this.#afterTools = false;
    } else if (event.type.startsWith("item.") && isRecord(event.item)) {
      this.#item(event.type, event.item);
    }
  }

  #item(type: string, item: Record<string, unknown>): void {
    const { id, type: kind } = item;
    if (typeof id !== "string") return;
    if (kind === "todo_list") {
      // Each plan the model writes starts or updates the list; its completion ends the turn.
      if (type === "item.completed") return;
      this.#call();
      this.#afterTools = true;
      return;
    }
    if (typeof kind === "string" && TOOL_ITEMS.has(kind)) {
      if (type === "item.updated") return;
      if (!this.#seen.has(id)) {
        this.#seen.add(id);
        this.#call();
      }
      // Calls run one after another: a result means none is still running.
      if (type === "item.completed") this.#afterTools = true;
      return;
    }
    if (kind === "reasoning" || kind === "agent_message") this.#modelOutput();
  }

  #call(): void {
    this.#modelOutput();
    this.#toolCalls++;
  }

  #modelOutput(): void {
    if (!this.#afterTools) return;
    this.#requests++;
    this.#afterTools = false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
