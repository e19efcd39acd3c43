/**
 * Turns the effective config into provider settings. A `[model_providers.<id>]` entry whose id is
 * a built-in one overrides the built-in's fields key by key (unlike Codex, which ignores such
 * entries): that is how users point `ollama` at another host or add headers to `openai`. A key
 * comes from the provider's environment variable, else from `auth.json` (auth.ts).
 */
import { ConfigError } from "../errors.ts";
import { BUILTIN_PROVIDERS, type BuiltinProvider } from "../providers/builtin.ts";
import { ollamaHostBaseUrl } from "../providers/ollama_api.ts";
import {
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_LINE_BYTES,
  DEFAULT_STREAM_MAX_REPLY_BYTES,
  DEFAULT_STREAM_MAX_RETRIES,
} from "../providers/mod.ts";
import type { Compat, ProviderSettings } from "../providers/types.ts";
import { joinKeyPath } from "./_keypath.ts";
import { MissingKeyError, storedKey } from "./auth.ts";
import type { EffectiveConfig } from "./effective.ts";
import { describeOrigin } from "./origin.ts";
import { isHeaderValue, LOCAL_PROVIDERS, type ProviderEntry } from "./schema.ts";

/** The provider to call and the model to ask for. */
export interface ResolvedProvider {
  settings: ProviderSettings;
  model: string;
}

/** Options of `resolveProvider`. */
export interface ResolveProviderOptions {
  /** The built-in table; the real one unless a test passes another. */
  builtins?: readonly BuiltinProvider[];
}

/** Replaces the base URL of the local providers, like Codex's `CODEX_OSS_BASE_URL`. */
const OSS_BASE_URL_VAR = "OPENINTERPRETER_OSS_BASE_URL";

/** Picks `model_provider` from the config, merges user and built-in fields, reads the API key. */
export function resolveProvider(
  config: EffectiveConfig,
  env: Record<string, string | undefined>,
  options: ResolveProviderOptions = {},
): ResolvedProvider {
  const builtins = options.builtins ?? BUILTIN_PROVIDERS;
  const id = config.values.model_provider;
  const builtin = builtins.find((row) => row.id === id);
  const entry: ProviderEntry | undefined = config.values.model_providers[id];
  if (!builtin && !entry) throw unknownProvider(config, id, builtins);
  const wireApi = entry?.wire_api ?? builtin?.wireApi ?? "responses";
  const openAi = wireApi === "messages" || wireApi === "gemini" ? {} : openAiOverrides(config, env);
  const baseUrl = openAi.baseUrl ??
    providerBaseUrl(id, { builtin, entryBaseUrl: entry?.base_url, env });
  if (!baseUrl) {
    throw new ConfigError(`Provider "${id}" has no "base_url"`, {
      hint: `Set base_url in [${joinKeyPath(["model_providers", id])}], ` +
        'for example base_url = "http://localhost:8000/v1"',
    });
  }
  const model = config.values.model ?? builtin?.defaultModel;
  if (!model) {
    throw new ConfigError(`No model is set for provider "${id}"`, {
      hint: 'Set model = "<model id>" in config.toml, or pass --model',
    });
  }
  const envKey = entry?.env_key ?? builtin?.envKey;
  const settings: ProviderSettings = {
    id,
    name: entry?.name ?? builtin?.name ?? id,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    wireApi,
    apiKey: openAi.apiKey,
    envKey,
    headers: { ...entry?.http_headers, ...envHeaders(entry?.env_http_headers ?? {}, env) },
    queryParams: { ...entry?.query_params },
    requestMaxRetries: entry?.request_max_retries ?? DEFAULT_REQUEST_MAX_RETRIES,
    streamMaxRetries: entry?.stream_max_retries ?? DEFAULT_STREAM_MAX_RETRIES,
    streamIdleTimeoutMs: entry?.stream_idle_timeout_ms ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    streamMaxLineBytes: entry?.stream_max_line_bytes ?? DEFAULT_STREAM_MAX_LINE_BYTES,
    streamMaxReplyBytes: entry?.stream_max_reply_bytes ?? DEFAULT_STREAM_MAX_REPLY_BYTES,
    ...(entry?.stream_max_reply_ms ? { requestTimeoutMs: entry.stream_max_reply_ms } : {}),
    compat: { ...builtin?.compat, ...compatOf(entry?.compat) },
  };
  // An explicit wire_api keeps a provider with a native API on that wire (Ollama over /v1).
  if (builtin?.nativeApi && entry?.wire_api === undefined) settings.nativeApi = builtin.nativeApi;
  const window = config.values.model_context_window;
  if (window !== undefined) settings.contextWindow = window;
  if (settings.apiKey === undefined && envKey !== undefined) {
    settings.apiKey = requireKey({ ...settings, envKey }, env, config.home);
  }
  return { settings, model };
}

/**
 * Where a provider's server is, `openai_base_url` aside: for a built-in local provider
 * `OPENINTERPRETER_OSS_BASE_URL` first; then `base_url` of its `[model_providers.<id>]` entry;
 * then, for Ollama, `OLLAMA_HOST`; then the built-in URL. `--oss` looks for servers there too.
 */
export function providerBaseUrl(
  id: string,
  opts: {
    builtin?: Pick<BuiltinProvider, "baseUrl" | "nativeApi">;
    entryBaseUrl?: string;
    env: Record<string, string | undefined>;
  },
): string | undefined {
  const { builtin, entryBaseUrl, env } = opts;
  const ossUrl = builtin && isLocal(id) ? env[OSS_BASE_URL_VAR] || undefined : undefined;
  const hostUrl = builtin?.nativeApi === "ollama" ? ollamaHostBaseUrl(env.OLLAMA_HOST) : undefined;
  return ossUrl ?? entryBaseUrl ?? hostUrl ?? builtin?.baseUrl;
}

/**
 * What the Codex SDK sets for an OpenAI-wire provider: `openai_base_url` (or `OPENAI_BASE_URL`
 * from older SDKs) replaces its base URL, and `CODEX_API_KEY` its key.
 */
function openAiOverrides(
  config: EffectiveConfig,
  env: Record<string, string | undefined>,
): { baseUrl?: string; apiKey?: string } {
  return {
    baseUrl: config.values.openai_base_url ?? (env.OPENAI_BASE_URL?.trim() || undefined),
    apiKey: env.CODEX_API_KEY?.trim() || undefined,
  };
}

function isLocal(id: string): boolean {
  return (LOCAL_PROVIDERS as readonly string[]).includes(id);
}

/** The key in the provider's variable, else the one stored in `auth.json` (see auth.ts). */
function requireKey(
  settings: ProviderSettings & { envKey: string },
  env: Record<string, string | undefined>,
  home: string,
): string {
  const { id, envKey } = settings;
  const key = env[envKey]?.trim() || storedKey(home, id);
  if (key) return key;
  throw new MissingKeyError(settings, env[envKey] === undefined ? "is not set" : "is empty");
}

function envHeaders(
  headers: Record<string, string>,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [header, variable] of Object.entries(headers)) {
    const value = env[variable];
    if (value && !isHeaderValue(value)) {
      throw new ConfigError(`$${variable} holds a line break or control character`, {
        hint: `Set ${variable} to a one-line value: it is sent as the ${header} header`,
      });
    }
    if (value) out[header] = value;
  }
  return out;
}

function compatOf(compat: ProviderEntry["compat"]): Compat {
  const out: Compat = {};
  if (compat?.reasoning_field !== undefined) out.reasoningField = compat.reasoning_field;
  if (compat?.max_tokens_field !== undefined) out.maxTokensField = compat.max_tokens_field;
  if (compat?.stream_usage !== undefined) out.streamUsage = compat.stream_usage;
  if (compat?.reasoning_replay !== undefined) out.reasoningReplay = compat.reasoning_replay;
  if (compat?.thinking !== undefined) out.thinking = compat.thinking;
  if (compat?.drop_keys !== undefined) out.dropKeys = compat.drop_keys;
  if (compat?.system_messages !== undefined) out.systemMessages = compat.system_messages;
  if (compat?.reasoning_request !== undefined) out.reasoningRequest = compat.reasoning_request;
  if (compat?.cache_markers !== undefined) out.cacheMarkers = compat.cache_markers;
  if (compat?.hosted_web_search !== undefined) out.hostedWebSearch = compat.hosted_web_search;
  return out;
}

function unknownProvider(
  config: EffectiveConfig,
  id: string,
  builtins: readonly BuiltinProvider[],
): ConfigError {
  const known = [...builtins.map((row) => row.id), ...Object.keys(config.values.model_providers)];
  const origin = config.origin("model_provider");
  const setBy = origin ? ` (set by ${describeOrigin(origin)})` : "";
  return new ConfigError(
    `Unknown model provider "${id}"${setBy}: known providers are ${
      known.map((k) => `"${k}"`).join(", ")
    }`,
    {
      hint: `Pick a known provider, or define one in config.toml: [${
        joinKeyPath(["model_providers", id])
      }] with base_url = "https://...", wire_api = "chat" and env_key = "MY_API_KEY"`,
    },
  );
}
