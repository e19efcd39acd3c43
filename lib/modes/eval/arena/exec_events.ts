/**
 * Live counts of a contestant's run, read from the `interpreter exec --json` lines it writes
 * (see ../../exec/exec_json_types.ts). The stream has no event per model request, so requests
 * are inferred from the order a reply's items come in: its reasoning, then its text, then its
 * calls. Output after a call's result, or reasoning or text after text, begins a new request.
 * Calls one reply made with nothing between them count as one request each, and calls that
 * failed before running (an unknown tool, bad arguments) write no item; the final record, read
 * from the trajectory, has the exact numbers.
 */

/** The item kinds a tool call makes. */
const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

/** How far the current reply has come; a reply's items come in this order. */
type Stage = "fresh" | "reasoning" | "text" | "calling" | "result";

/** Counts tool calls and model requests from `exec --json` output, fed in chunks as it comes. */
export class ExecEventCounter {
  #partial = "";
  #toolCalls = 0;
  #requests = 0;
  #seen = new Set<string>();
  #stage: Stage = "fresh";

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
      this.#stage = "fresh";
    } else if (event.type === "turn.completed" && this.#stage === "result") {
      // The last reply, after the last result, had nothing to show.
      this.#requests++;
      this.#stage = "fresh";
    } else if (event.type.startsWith("item.") && isRecord(event.item)) {
      this.#item(event.type, event.item);
    }
  }

  #item(type: string, item: Record<string, unknown>): void {
    const { id, type: kind } = item;
    if (typeof id !== "string") return;
    if (kind === "reasoning") return this.#reply("reasoning");
    if (kind === "agent_message") return this.#reply("text");
    if (kind === "todo_list") {
      // Each plan the model writes starts or updates the list; its completion ends the turn.
      if (type === "item.completed") return;
      this.#call();
      this.#stage = "result";
      return;
    }
    if (typeof kind !== "string" || !TOOL_ITEMS.has(kind) || type === "item.updated") return;
    if (!this.#seen.has(id)) {
      this.#seen.add(id);
      this.#call();
    }
    // Calls run one after another: a result means none is still running.
    if (type === "item.completed") this.#stage = "result";
  }

  #call(): void {
    this.#reply("calling");
    this.#toolCalls++;
  }

  /** Output of the model at `stage` of a reply: a new reply when it cannot follow the last. */
  #reply(stage: Stage): void {
    // Reasoning and text open a reply; calls follow its text and each other until a result.
    const following = stage === "calling"
      ? this.#stage !== "result"
      : this.#stage === "fresh" || this.#stage === "reasoning";
    if (!following) this.#requests++;
    this.#stage = stage;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
