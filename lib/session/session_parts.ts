/**
 * What a `LiveSession` is made of: its state as plain data, apart from the live parts (processes,
 * connections, files) it must close, and the model limits it works within.
 */
import { type ConfigValues, LOCAL_PROVIDERS } from "../config/schema.ts";
import type { SessionContext } from "../harness/context.ts";
import type { Harness } from "../harness/types.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import type { McpServers } from "../mcp/mcp_servers.ts";
import type { WireApi } from "../model/request_settings.ts";
import { type Catalog, type ModelLimits, modelLimits } from "../providers/catalog.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import type { Resources } from "../tools/resources.ts";
import type { ToolSource } from "../tools/tool_source.ts";
import type { AgentSession } from "./agent_session.ts";
import type { SessionRecorder } from "./recorder.ts";
import type { SessionHooks } from "./session_hooks.ts";
import type { SessionRelay } from "./relay.ts";
import type { SessionConfig, SessionInfo, SessionIO } from "./types.ts";

/** What a session knows, apart from its live parts: plain data. */
export interface SessionState {
  /** The conversation and its request settings, as the loop reads and extends them. */
  loop: LoopState;
  harness: Harness;
  /** The harness's context with this session's values: system parts and opening messages. */
  context: SessionContext;
  /** Where requests go (it changes with `/model`). */
  route: { providerId: string; wireApi: WireApi };
  limits: ModelLimits;
  /** What the tools keep between calls (todos, loaded tools, read records); saved in the file. */
  toolState: Map<string, unknown>;
  /** The tool state as last saved, to write it only when it changed. */
  savedToolState: string;
  /** Tool calls recovered from reply text. */
  repairs: number;
}

/** The live parts: processes, connections and files the session must close. */
export interface LiveParts {
  /** Config, sandbox, file-tool helper, git runner and change watch. */
  agent: AgentSession;
  provider: Provider;
  recorder: SessionRecorder;
  /** What tools leave running: background jobs, the terminal. */
  resources: Resources;
  relay: SessionRelay;
  /** The MCP servers started from `[mcp_servers]`. */
  mcp: McpServers;
}

/** What a `LiveSession` is made of. */
export interface SessionParts {
  config: SessionConfig;
  env: Record<string, string>;
  io: SessionIO;
  info: SessionInfo;
  catalog: Catalog;
  state: SessionState;
  live: LiveParts;
  /** Tools from outside the harness, offered in every turn. */
  toolSources: readonly ToolSource[];
  /** The user's hooks at the session's seams. */
  hooks: SessionHooks;
}

/** The turn running now. */
export interface RunningTurn {
  /** The latest tool call: calls run one at a time, so a sub-agent's events belong to it. */
  callId: string;
  /** The prompt's `allowedRules` (a custom command's `allowed-tools`), for this turn only. */
  allow?: readonly string[];
}

/** The limits of `model` at `settings`'s provider under the config's window settings. */
export function limitsOf(
  catalog: Catalog,
  values: ConfigValues,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  model: string,
  window?: number,
): ModelLimits {
  const limits = modelLimits(catalog, settings, {
    model,
    configuredWindow: window ?? values.model_context_window,
    configuredCompactAt: values.model_auto_compact_token_limit,
  });
  // A limit past 90% of the window would let a request overflow before the session compacts;
  // Codex holds its `model_auto_compact_token_limit` there too.
  limits.compactAt = Math.min(limits.compactAt, Math.floor(limits.contextWindow * 0.9));
  // A local model's reply may take at most a quarter of its window, so that a long answer cannot
  // crowd out the prompt (at start-up and after a /model switch alike).
  if ((LOCAL_PROVIDERS as readonly string[]).includes(settings.id)) {
    const cap = Math.floor(limits.contextWindow / LOCAL_OUTPUT_SHARE);
    limits.maxOutput = Math.min(limits.maxOutput ?? cap, cap);
  }
  return limits;
}

/** A local model's output limit is at most this share of its context window. */
const LOCAL_OUTPUT_SHARE = 4;
