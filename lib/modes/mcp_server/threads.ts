/**
 * The sessions `interpreter mcp-server` runs, one per thread: a `codex` call opens one and runs
 * its first turn, a `codex-reply` call runs the next turn of a live one (or of a saved one it
 * reopens). Calls run at once, each in its own session; one session runs one turn at a time.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../../errors.ts";
import type { Block } from "../../model/message.ts";
import {
  type Opening,
  type OpeningRequest,
  openSession,
  resolveOpening,
  type Session,
  type SessionConfig,
  UntrustedDirectoryError,
} from "../../session/open.ts";
import type { SessionIO } from "../../session/types.ts";
import { codexSessionConfig, firstPrompt } from "./call_config.ts";
import { CodexEvents, sessionConfigured, tokenCount } from "./codex_events.ts";
import {
  type CodexArgs,
  parseCodexArgs,
  parseReplyArgs,
  type ReplyArgs,
  ToolArgumentsError,
} from "./codex_tools.ts";
import { errorText, outcomeText, plainError, startFailure, threadResult } from "./results.ts";
import { type RequestExtra, ToolCallRun } from "./tool_call.ts";

/** One session and the call its events and questions go to now. */
class Thread {
  session!: Session;
  readonly events = new CodexEvents();
  /** The call running a turn (or opening the session); undefined between turns. */
  run: ToolCallRun | undefined;
  readonly io: SessionIO = {
    onEvent: (event) => {
      for (const msg of this.events.map(event)) this.run?.send(msg);
    },
    approve: (request, signal) =>
      this.run ? this.run.approve(request, this.events, signal) : Promise.resolve("deny"),
  };

  /** `canElicit`: the client declared elicitation, so the model's questions go to it. */
  constructor(opener: ToolCallRun, canElicit = false) {
    this.run = opener;
    if (canElicit) {
      this.io.askUser = (questions, _meta, signal) =>
        this.run ? this.run.ask(questions, signal) : Promise.resolve(null);
    }
  }
}

/** Every thread of the server, live ones by session id. Dispose it to close them all. */
export class CodexThreads implements AsyncDisposable {
  readonly #base: SessionConfig;
  readonly #env: Record<string, string>;
  readonly #log: (line: string) => void;
  readonly #canElicit: () => boolean;
  readonly #live = new Map<string, Thread>();
  /** Saved sessions being reopened, by the id asked for. */
  readonly #opening = new Map<string, Promise<Thread>>();
  readonly #runs = new Set<ToolCallRun>();
  readonly #calls = new Set<Promise<unknown>>();
  #closed = false;

  /** `base` is the server's own settings; each call's arguments go over them. */
  constructor(
    base: SessionConfig,
    opts: { env: Record<string, string>; log: (line: string) => void; canElicit?: () => boolean },
  ) {
    this.#canElicit = opts.canElicit ?? (() => false);
    this.#base = base;
    this.#env = opts.env;
    this.#log = opts.log;
  }

  /** Answers one `tools/call`. */
  call(name: string, args: unknown, extra: RequestExtra): Promise<CallToolResult> {
    if (this.#closed) return Promise.resolve(plainError("The server is closing"));
    const task = this.#dispatch(name, args, extra);
    this.#calls.add(task);
    task.finally(() => this.#calls.delete(task)).catch(() => {});
    return task;
  }

  /** Stops every running turn, waits for the calls to end, and closes every session. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    for (const run of this.#runs) run.stop("The server closed, so the turn was stopped");
    await Promise.allSettled([...this.#calls]);
    await Promise.allSettled([...this.#live.values()].map((t) => t.session[Symbol.asyncDispose]()));
    this.#live.clear();
  }

  async #dispatch(name: string, args: unknown, extra: RequestExtra): Promise<CallToolResult> {
    const run = new ToolCallRun(extra, this.#log);
    this.#runs.add(run);
    try {
      if (name === "codex") return await this.#codex(parseCodexArgs(args), run);
      if (name === "codex-reply") return await this.#reply(parseReplyArgs(args), run);
      return plainError(`Unknown tool "${name}": this server offers "codex" and "codex-reply"`);
    } catch (error) {
      if (error instanceof ToolArgumentsError) return plainError(error.message);
      throw error;
    } finally {
      this.#runs.delete(run);
    }
  }

  async #codex(args: CodexArgs, run: ToolCallRun): Promise<CallToolResult> {
    const thread = new Thread(run, this.#canElicit());
    try {
      const config = await codexSessionConfig(this.#base, args);
      const opening = await this.#resolve({ config });
      thread.session = await openSession(opening, thread.io, { env: this.#env });
    } catch (error) {
      this.#log(`Failed to start a session: ${errorText(error)}`);
      return startFailure(error);
    }
    this.#live.set(thread.session.id, thread);
    const warnings = args["compact-prompt"]
      ? ['"compact-prompt" has no effect here: the compaction prompt comes from the harness']
      : [];
    return await this.#turn(thread, run, firstPrompt(args), { opened: true, warnings });
  }

  async #reply(args: ReplyArgs, run: ToolCallRun): Promise<CallToolResult> {
    const live = this.#live.get(args.threadId);
    if (live) return await this.#turn(live, run, [{ type: "text", text: args.prompt }]);
    let thread: Thread;
    try {
      thread = await this.#reopen(args.threadId, run);
    } catch (error) {
      return plainError(`Cannot continue thread "${args.threadId}": ${errorText(error)}`);
    }
    const opened = thread.run === run;
    return await this.#turn(thread, run, [{ type: "text", text: args.prompt }], { opened });
  }

  /** The thread of saved session `id`, reopened (once, however many calls ask at a time). */
  #reopen(id: string, run: ToolCallRun): Promise<Thread> {
    const opening = this.#opening.get(id) ?? this.#open(id, run);
    this.#opening.set(id, opening);
    return opening.finally(() => this.#opening.delete(id));
  }

  /** Reopens saved session `id` in the directory it was started in (while it still is one). */
  async #open(id: string, run: ToolCallRun): Promise<Thread> {
    const live = this.#live.get(id);
    if (live) return live;
    const opening = await this.#resolve({
      config: { ...this.#base, resume: { id } },
      cwd: "saved",
    });
    const thread = new Thread(run, this.#canElicit());
    thread.session = await openSession(opening, thread.io, { env: this.#env });
    this.#live.set(thread.session.id, thread);
    return thread;
  }

  /** `request` resolved as the server takes it: session ids only; its errors in its terms. */
  async #resolve(request: OpeningRequest): Promise<Opening> {
    return await resolveOpening({ ...request, env: this.#env, accept: "id" }).catch((error) => {
      if (!(error instanceof UntrustedDirectoryError)) throw error;
      throw new UserError(`"${error.cwd}" is not inside a git repository`, {
        hint: 'Use a directory inside a git repository as "cwd", or add "--skip-git-repo-check" ' +
          "to the arguments the client starts interpreter mcp-server with",
      });
    });
  }

  /** Runs one turn of `thread` for `run`; a turn already running makes this call an error. */
  async #turn(
    thread: Thread,
    run: ToolCallRun,
    prompt: Block[],
    opts: { opened?: boolean; warnings?: string[] } = {},
  ): Promise<CallToolResult> {
    const { session, events } = thread;
    if (thread.run && thread.run !== run) {
      return threadResult(
        session.id,
        `Cannot continue thread "${session.id}" while its last turn is running: wait for that ` +
          "call's result (or cancel it), then reply",
        true,
      );
    }
    thread.run = run;
    try {
      run.threadStarted(
        session.id,
        opts.opened ? sessionConfigured(session.id, session.info, session.status()) : undefined,
      );
      for (const message of opts.warnings ?? []) run.send({ type: "warning", message });
      const contextWindow = session.status().contextWindow;
      run.send({ type: "task_started", model_context_window: contextWindow });
      const text = prompt.flatMap((b) => b.type === "text" && !b.context ? [b.text] : []);
      run.send({ type: "user_message", message: text.join(""), images: null });
      const outcome = await session.prompt(prompt, run.signal);
      run.send(tokenCount(session.usage, events.turnUsage, contextWindow));
      const result = outcomeText(outcome, run.stoppedBy);
      run.send(
        outcome.status === "completed"
          ? { type: "task_complete", last_agent_message: result.text }
          : outcome.status === "aborted"
          ? { type: "turn_aborted", reason: "interrupted" }
          : { type: "error", message: result.text },
      );
      return threadResult(session.id, result.text, result.isError);
    } catch (error) {
      return threadResult(session.id, errorText(error), true);
    } finally {
      thread.run = undefined;
    }
  }
}
