/**
 * The agent side of one ACP connection: `initialize` and `authenticate`, the sessions it opens
 * (`session/new`), reopens (`session/load`), lists and closes, and the requests it routes to
 * one of them (prompt, cancel, mode, config options).
 */
import type {
  AgentContext,
  AuthenticateRequest,
  CancelNotification,
  ClientCapabilities,
  CloseSessionRequest,
  InitializeRequest,
  InitializeResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  LoadSessionRequest,
  LoadSessionResponse,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
  SetSessionModeRequest,
} from "@agentclientprotocol/sdk";
import { isAbsolute } from "node:path";
import { configHome } from "../../config/load.ts";
import { UsageError, UserError } from "../../errors.ts";
import {
  NotASessionIdError,
  type Opening,
  reconfigured,
  resolveOpening,
  type ResumeTarget,
  type SessionConfig,
  SessionNotFoundError,
  UntrustedDirectoryError,
} from "../../session/open.ts";
import { listSavedSessions, SessionError } from "../../session/saved_sessions.ts";
import { VERSION } from "../../version.ts";
import { AcpSession, type AcpSessionDeps } from "./acp_session.ts";
import { unknownSession } from "./errors.ts";
import { mcpServerOverrides } from "./mcp_servers.ts";
import { initialMode, isModeId, modeState } from "./options.ts";

/** The protocol version this agent speaks. */
const PROTOCOL_VERSION = 1;
/** Sessions one `session/list` page holds. */
const PAGE = 50;

/**
 * The `initialize` answer: what this agent really supports. Keys come from the environment or
 * `auth.json`, so `authenticate` has nothing to do (an "agent" method); a client that can run the
 * agent in a terminal is also offered the REPL's provider and key setup there (`acp --login`).
 */
function initializeResponse(terminalAuth: boolean): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {}, close: {} },
    },
    authMethods: [{
      id: "api-key",
      name: "API key",
      description: "Uses the model provider's key: set it (OPENAI_API_KEY, say) in the " +
        "environment the editor starts interpreter with, or run interpreter once in a terminal " +
        "to store it",
    }, ...(terminalAuth ? [TERMINAL_LOGIN] : [])],
    agentInfo: { name: "interpreter", title: "Open Interpreter", version: VERSION },
  };
}

/** The terminal method: the client reruns `interpreter acp ARGS --login` in a terminal. */
const TERMINAL_LOGIN = {
  type: "terminal" as const,
  id: "terminal-login",
  name: "Set up a provider and key in a terminal",
  description: "Opens interpreter in a terminal, which asks for the model provider's key when " +
    "none is set and stores it in auth.json; type /exit when done",
  args: ["--login"],
};

/** The sessions of one connection. Dispose it to stop and close them all. */
export class AcpAgent implements AsyncDisposable {
  readonly #base: SessionConfig;
  readonly #env: Record<string, string>;
  readonly #log: (line: string) => void;
  readonly #sessions = new Map<string, AcpSession>();
  #client: AgentContext | undefined;
  #capabilities: ClientCapabilities | undefined;

  /** `base` is what the command line set; each session's directory and servers go over it. */
  constructor(base: SessionConfig, opts: { env: Record<string, string>; log(line: string): void }) {
    this.#base = base;
    this.#env = opts.env;
    this.#log = opts.log;
  }

  /** The connection's client, to notify and ask. */
  attach(client: AgentContext): void {
    this.#client = client;
  }

  initialize(params: InitializeRequest): InitializeResponse {
    this.#capabilities = params.clientCapabilities;
    return initializeResponse(params.clientCapabilities?.auth?.terminal === true);
  }

  /** A no-op: key-based providers read their key from the environment or auth.json. */
  authenticate(_params: AuthenticateRequest): Record<string, never> {
    return {};
  }

  async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    const opening = await this.#opening(params);
    const session = await AcpSession.open(opening, initialMode(this.#base), this.#deps());
    this.#sessions.set(session.id, session);
    // The editor learns the session's id from this answer; its commands come right after.
    setTimeout(() => session.announceCommands(), 0);
    return {
      sessionId: session.id,
      modes: modeState(session.mode),
      configOptions: await session.options(),
    };
  }

  async loadSession(params: LoadSessionRequest): Promise<LoadSessionResponse> {
    let session = this.#sessions.get(params.sessionId);
    if (!session) {
      const opening = await this.#opening(params, { id: params.sessionId });
      session = await AcpSession.open(opening, initialMode(this.#base), this.#deps());
      this.#sessions.set(session.id, session);
    }
    await session.replay();
    session.announceCommands();
    return { modes: modeState(session.mode), configOptions: await session.options() };
  }

  async listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    const home = configHome(this.#env, this.#base.cwd);
    const { sessions: all } = await listSavedSessions(home, { cwd: params.cwd ?? undefined });
    const start = Number(params.cursor ?? 0) || 0;
    const page = all.slice(start, start + PAGE);
    return {
      sessions: page.map((s) => ({
        sessionId: s.id,
        cwd: s.cwd,
        title: s.name ?? firstLine(s.firstPrompt ?? ""),
        updatedAt: s.modified.toISOString(),
      })),
      ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}),
    };
  }

  async closeSession(params: CloseSessionRequest): Promise<Record<string, never>> {
    const session = this.#session(params.sessionId);
    this.#sessions.delete(params.sessionId);
    await session[Symbol.asyncDispose]();
    return {};
  }

  async prompt(params: PromptRequest): Promise<PromptResponse> {
    return { stopReason: await this.#session(params.sessionId).prompt(params.prompt) };
  }

  cancel(params: CancelNotification): void {
    this.#sessions.get(params.sessionId)?.cancel();
  }

  async setMode(params: SetSessionModeRequest): Promise<Record<string, never>> {
    if (!isModeId(params.modeId)) {
      throw new UsageError(`No mode "${params.modeId}"`, {
        hint: "The modes are read-only, workspace-write and full-access",
      });
    }
    await this.#session(params.sessionId).setMode(params.modeId);
    return {};
  }

  async setConfigOption(
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    if (typeof params.value !== "string") {
      throw new UsageError(`Cannot set "${params.configId}" to ${JSON.stringify(params.value)}`, {
        hint: "Every option of this agent is a select: send one of its values",
      });
    }
    const session = this.#session(params.sessionId);
    return { configOptions: await session.setOption(params.configId, params.value) };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((s) => s[Symbol.asyncDispose]()));
  }

  #session(id: string): AcpSession {
    const session = this.#sessions.get(id);
    if (!session) throw unknownSession(id);
    return session;
  }

  #deps(): AcpSessionDeps {
    if (!this.#client) throw new Error("The ACP connection is not attached");
    const capabilities = this.#capabilities;
    return { client: this.#client, env: this.#env, log: this.#log, capabilities };
  }

  /**
   * The session `params` ask for, resolved: in `params.cwd`, with the client's MCP servers,
   * continuing the saved session `resume` names (by id only); its errors in the protocol's terms.
   */
  async #opening(
    params: Pick<NewSessionRequest, "cwd" | "mcpServers">,
    resume?: ResumeTarget,
  ): Promise<Opening> {
    const { cwd } = params;
    const info = isAbsolute(cwd) ? await Deno.stat(cwd).catch(() => undefined) : undefined;
    if (!info?.isDirectory) {
      throw new UsageError(`Cannot open a session in "${cwd}": it is not a directory`, {
        hint: "Send the working directory as an absolute path to an existing directory",
      });
    }
    const config: SessionConfig = { ...this.#base, cwd, origin: "acp", resume };
    const opening = await resolveOpening({ config, env: this.#env, accept: "id" })
      .catch((error) => {
        throw inAcpTerms(error, cwd);
      });
    const servers = mcpServerOverrides(params.mcpServers ?? []);
    return reconfigured(opening, {
      overrides: [...(opening.config.overrides ?? []), ...servers],
    });
  }
}

/** A typed error of `resolveOpening()` worded for an editor; others as they are. */
function inAcpTerms(error: unknown, cwd: string): unknown {
  if (error instanceof UntrustedDirectoryError) {
    return new UserError(`Cannot open a session in "${cwd}": it is not inside a git repository`, {
      hint: 'Open a folder inside a git repository, or add "--skip-git-repo-check" to the ' +
        "arguments the editor starts interpreter acp with",
    });
  }
  if (error instanceof NotASessionIdError) {
    return new UsageError(`Cannot load session ${JSON.stringify(error.ref)}: it is no session id`, {
      hint: "session/load takes a sessionId as session/new or session/list gave it (a UUID), " +
        "never a file path",
    });
  }
  if (error instanceof SessionNotFoundError) {
    return new SessionError(error.message, {
      hint: "session/list lists the saved sessions of a directory",
    });
  }
  return error;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0];
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
