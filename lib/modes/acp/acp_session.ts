/**
 * One ACP session: a `Session` of lib/session with what the editor sees of it. Its events go out
 * as `session/update` notifications, in order; approvals become `session/request_permission`
 * requests; prompts, slash commands and switches of mode, model, effort and harness run one at a
 * time; `cancel()` stops the running prompt, its commands killed.
 */
import type {
  AgentContext,
  AvailableCommand,
  ClientCapabilities,
  ContentBlock,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionUpdate,
  StopReason,
} from "@agentclientprotocol/sdk";
import type { ApprovalReply } from "../../approval/hook.ts";
import { AuthError, UsageError, UserError } from "../../errors.ts";
import {
  type Opening,
  openSession,
  type PromptOutcome,
  reconfigured,
  type Session,
  type SessionEvent,
  settingsConfig,
} from "../../session/open.ts";
import type { ApprovalRequest, SessionIO } from "../../session/types.ts";
import { acpAskUser } from "./ask_user.ts";
import { AVAILABLE_COMMANDS, runCommand, slashCommand } from "./commands.ts";
import {
  configOptions,
  effortOf,
  inMode,
  isModeId,
  type ModeId,
  modeSettings,
  OPTION_IDS,
} from "./options.ts";
import { answerOf, permissionContent, permissionOptions } from "./permission.ts";
import { promptBlocks, promptText } from "./prompt_blocks.ts";
import { replayUpdates } from "./replay.ts";
import { chunk, SessionUpdates } from "./updates.ts";

/** Custom slash commands (issue 33), loaded when the first session announces its commands. */
const customCommands = () => import("./custom_commands.ts");

/** What every session of a connection shares. */
export interface AcpSessionDeps {
  client: AgentContext;
  env: Record<string, string>;
  /** One line on stderr. */
  log(line: string): void;
  /** What the client declared in `initialize` (form elicitation for the model's questions). */
  capabilities?: ClientCapabilities | null;
}

/** See the module comment. Dispose it to stop its turn and close its session. */
export class AcpSession implements AsyncDisposable {
  #session!: Session;
  /** What the session was opened with, its mode's settings aside. */
  readonly #opening: Opening;
  #mode: ModeId;
  readonly #deps: AcpSessionDeps;
  readonly #updates = new SessionUpdates({ showReasoning: true });
  #ready = false;
  #sending: Promise<void> = Promise.resolve();
  /** The last of the tasks that run one at a time. */
  #running: Promise<unknown> = Promise.resolve();
  #turn: AbortController | undefined;

  private constructor(opening: Opening, mode: ModeId, deps: AcpSessionDeps) {
    this.#opening = opening;
    this.#mode = mode;
    this.#deps = deps;
  }

  /** Opens the session `opening` resolved (it may continue a saved one) in `mode`. */
  static async open(
    opening: Opening,
    mode: ModeId,
    deps: AcpSessionDeps,
  ): Promise<AcpSession> {
    const acp = new AcpSession(opening, mode, deps);
    const inItsMode = reconfigured(opening, inMode(opening.config, mode));
    acp.#session = await openSession(inItsMode, acp.#io(), { env: deps.env });
    acp.#ready = true;
    return acp;
  }

  get id(): string {
    return this.#session.id;
  }

  get mode(): ModeId {
    return this.#mode;
  }

  /** The session's config options now. */
  options(): Promise<SessionConfigOption[]> {
    return configOptions(this.#session, this.#mode);
  }

  /** Tells the editor which slash commands there are. */
  announceCommands(): void {
    const announce = (availableCommands?: AvailableCommand[]) =>
      availableCommands &&
      this.#send({ sessionUpdate: "available_commands_update", availableCommands });
    announce(AVAILABLE_COMMANDS);
    // The custom commands (issue 33) follow once read; the update replaces the list.
    void customCommands().then((m) => m.availableCommands(this.#session)).then(announce, () => {});
  }

  /** Sends the whole conversation so far as updates (`session/load`); resolves once sent. */
  async replay(): Promise<void> {
    const history = this.#session.replayHistory();
    for (const update of replayUpdates(history, this.#updates, this.#shown())) {
      this.#send(update);
    }
    await this.#sending;
  }

  /** Runs one prompt (or slash command) to its end; resolves once its updates are sent. */
  prompt(prompt: ContentBlock[]): Promise<StopReason> {
    return this.#exclusive(async () => {
      const controller = new AbortController();
      this.#turn = controller;
      try {
        return await this.#runPrompt(prompt, controller.signal);
      } finally {
        this.#turn = undefined;
        await this.#sending;
      }
    });
  }

  /** Stops the running prompt: the model, its commands, a pending permission request. */
  cancel(): void {
    this.#turn?.abort();
  }

  /** Switches the mode, once no prompt runs: its sandbox and policy change in place. */
  async setMode(mode: ModeId): Promise<void> {
    await this.#exclusive(() => this.#switchMode(mode));
    this.#sendOptions();
  }

  /** Sets one config option once no prompt runs; every option as it is then. */
  setOption(id: string, value: string): Promise<SessionConfigOption[]> {
    return this.#exclusive(async () => {
      switch (id) {
        case OPTION_IDS.mode:
          if (!isModeId(value)) throw badValue(id, value);
          await this.#switchMode(value);
          this.#send({ sessionUpdate: "current_mode_update", currentModeId: value });
          break;
        case OPTION_IDS.model:
          await this.#session.configure({ model: value });
          break;
        case OPTION_IDS.effort:
          if (value !== "default" || this.#session.settings.reasoningEffort) {
            await this.#session.configure({ reasoningEffort: effortOf(value) });
          }
          break;
        case OPTION_IDS.harness:
          await this.#session.configure({ harness: value });
          break;
        default:
          throw new UsageError(`No config option "${id}"`, {
            hint: `The options are ${Object.values(OPTION_IDS).join(", ")}`,
          });
      }
      return await this.options();
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.cancel();
    await this.#running.catch(() => {});
    await this.#sending;
    this.#ready = false;
    await this.#session[Symbol.asyncDispose]();
  }

  async #runPrompt(prompt: ContentBlock[], signal: AbortSignal): Promise<StopReason> {
    const text = promptText(prompt);
    const command = slashCommand(text);
    if (command) {
      const stop = await runCommand(command, {
        session: this.#session,
        mode: this.#mode,
        send: (update) => this.#send(update),
        signal,
        reviewBase: {
          opening: this.#currentOpening(),
          io: { onEvent: () => {} },
          env: this.#deps.env,
        },
        ...this.#shown(),
        confirm: (question) => this.#confirm(question, signal),
      });
      this.#sendUsage();
      return stop;
    }
    const blocks = promptBlocks(prompt);
    if (this.#session.history().length === 0 && text.trim()) {
      const title = text.trim().split("\n")[0];
      this.#send({
        sessionUpdate: "session_info_update",
        title: title.length > 80 ? `${title.slice(0, 79)}…` : title,
      });
    }
    const say = (note: string) => this.#send(chunk("agent_message_chunk", `${note}\n\n`));
    const { promptOrCommand } = await customCommands();
    const outcome = await promptOrCommand(this.#session, { text, blocks }, signal, say);
    this.#sendUsage();
    return this.#stopReason(outcome);
  }

  #stopReason(outcome: PromptOutcome): StopReason {
    switch (outcome.status) {
      case "completed":
        return outcome.refused ? "refusal" : "end_turn";
      case "aborted":
        return "cancelled";
      case "step_limit":
      case "budget_limit":
        return "max_turn_requests";
      case "repeated_call": {
        const { words, harnesses = [] } = outcome;
        const others = harnesses.length ? ` (${harnesses.join(", ")} fit this model)` : "";
        this.#send(chunk(
          "agent_message_chunk",
          `\n\nStopped: ${words.message}. Try another harness in the Harness ` +
            `option${others}, or a bigger model.`,
        ));
        return "end_turn";
      }
      case "failed": {
        const { message, hint, status } = outcome.error;
        // A refused key lets the editor offer to authenticate.
        throw status === 401 || status === 403
          ? new AuthError(message, { hint })
          : new UserError(message, { hint });
      }
    }
  }

  /**
   * Changes the sandbox mode and approval policy in place (`configure()`): the MCP servers keep
   * running and session grants stay unless the mode narrows; background work started under a
   * wider mode is stopped first.
   */
  async #switchMode(mode: ModeId): Promise<void> {
    if (mode === this.#mode) return;
    await this.#session.configure(modeSettings(mode));
    this.#mode = mode;
  }

  /** The opening with the settings the session runs with now over what it was opened with. */
  #currentOpening(): Opening {
    return reconfigured(this.#opening, settingsConfig(this.#session.settings));
  }

  #shown(): { showReasoning: boolean } {
    return { showReasoning: this.#session.config.hide_agent_reasoning !== true };
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#running.then(task, task);
    this.#running = run.catch(() => {});
    return run;
  }

  #io(): SessionIO {
    return {
      onEvent: (event) => this.#onEvent(event),
      approve: (request, signal) => this.#approve(request, signal),
      askUser: acpAskUser({
        client: this.#deps.client,
        capabilities: this.#deps.capabilities,
        sessionId: () => this.id,
        toolCallId: (callId) => this.#updates.toolCallId(callId),
        sent: () => this.#sending,
        log: this.#deps.log,
      }),
    };
  }

  #onEvent(event: SessionEvent): void {
    if (event.type === "warning") this.#deps.log(`warning: ${event.message}`);
    if (event.type === "retry") this.#deps.log(`retrying (${event.attempt}): ${event.reason}`);
    if (event.type === "thinking_delta" && !this.#shown().showReasoning) return;
    for (const update of this.#updates.map(event)) this.#send(update);
    if (event.type === "approval_resolved" && event.answer !== "deny" && event.callId) {
      const toolCallId = this.#updates.toolCallId(event.callId);
      this.#send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
    }
    if (event.type === "assistant_message") this.#sendUsage();
    if (event.type === "harness_switched" || event.type === "model_switched") this.#sendOptions();
  }

  async #approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply> {
    // The tool call the question is about reaches the editor first.
    await this.#sending;
    const toolCallId = this.#updates.toolCallId(request.callId);
    const content = permissionContent(request.view);
    const outcome = await this.#askPermission({
      sessionId: this.id,
      toolCall: { toolCallId, status: "pending", content },
      options: permissionOptions(request.view.options),
    }, signal);
    return answerOf(outcome);
  }

  /**
   * The client's answer to a permission request; undefined when it answered with an error, which
   * counts as a refusal (as in the MCP server) rather than failing the prompt.
   */
  async #askPermission(
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionOutcome | undefined> {
    try {
      const answer = await this.#deps.client.request("session/request_permission", params, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
      return answer.outcome;
    } catch (error) {
      if (signal.aborted) throw error;
      const why = error instanceof Error ? error.message : JSON.stringify(error);
      this.#deps.log(`The client's answer to a permission request failed, so it is a no: ${why}`);
      return undefined;
    }
  }

  /** A yes/no question about a file, as a permission request on an edit of its own. */
  async #confirm(question: { title: string; text: string }, signal: AbortSignal): Promise<boolean> {
    const toolCallId = `confirm-${crypto.randomUUID().slice(0, 8)}`;
    const { title } = question;
    this.#send({ sessionUpdate: "tool_call", toolCallId, title, kind: "edit", status: "pending" });
    await this.#sending;
    const outcome = await this.#askPermission({
      sessionId: this.id,
      toolCall: {
        toolCallId,
        title,
        content: [{ type: "content", content: { type: "text", text: question.text } }],
      },
      options: [
        { optionId: "accept", name: "Replace", kind: "allow_once" },
        { optionId: "decline", name: "Keep it", kind: "reject_once" },
      ],
    }, signal);
    const yes = outcome?.outcome === "selected" && outcome.optionId === "accept";
    this.#send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: yes ? "completed" : "failed",
    });
    return yes;
  }

  #sendUsage(): void {
    const s = this.#session.status();
    this.#send({
      sessionUpdate: "usage_update",
      used: s.contextUsed,
      size: s.contextWindow,
      ...(s.cost !== undefined ? { cost: { amount: s.cost, currency: "USD" } } : {}),
    });
  }

  #sendOptions(): void {
    if (!this.#ready) return;
    const sessionId = this.id;
    this.#sending = this.#sending.then(async () => {
      const configOptions = await this.options();
      const update: SessionUpdate = { sessionUpdate: "config_option_update", configOptions };
      await this.#deps.client.notify("session/update", { sessionId, update });
    }).catch((error: Error) => this.#deps.log(`cannot send the config options: ${error.message}`));
  }

  #send(update: SessionUpdate): void {
    if (!this.#ready) return;
    const params = { sessionId: this.id, update };
    this.#sending = this.#sending.then(() => this.#deps.client.notify("session/update", params))
      .catch((error: Error) => this.#deps.log(`cannot send an update: ${error.message}`));
  }
}

function badValue(id: string, value: string): UsageError {
  return new UsageError(`Cannot set "${id}" to "${value}"`, {
    hint: "Choose one of the values the option lists",
  });
}
