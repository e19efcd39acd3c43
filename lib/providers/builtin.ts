/**
 * The built-in providers, as data. `baseUrl` is Codex-style: it includes the API version path
 * (`/v1`, Gemini's `/v1beta`), and the adapter appends `/chat/completions`, `/responses`,
 * `/messages` or `/models/<model>:streamGenerateContent`. For the
 * Messages wire only, a base_url that does not end in `/v1` is taken in the unversioned form
 * Anthropic-compatible vendors document (`https://host/anthropic`) and gets `/v1/messages`.
 */
import type { Compat, WireApi } from "./types.ts";

/** One row of the built-in provider table. */
export interface BuiltinProvider {
  id: string;
  name: string;
  baseUrl: string;
  wireApi: WireApi;
  /**
   * Every wire API the server serves at `baseUrl`, `wireApi` among them: the values `wire_api` in
   * `[model_providers.<id>]` can take for it (each has a case in `tests/provider_routing_test.ts`).
   */
  wireApis: readonly WireApi[];
  /** The environment variable holding the key; absent for local servers that need none. */
  envKey?: string;
  compat: Compat;
  defaultModel: string;
  /** The server's own chat API, used unless the user sets `wire_api` (see `ProviderSettings`). */
  nativeApi?: "ollama";
}

/**
 * How a row takes reasoning and cache markers, said on every row: Chat reasoning as
 * `reasoning_effort` and no `cache_control` parts (Messages rows have their own breakpoints).
 */
const PLAIN: Compat = { reasoningRequest: "reasoning_effort", cacheMarkers: false };
const CHAT_USAGE: Compat = { ...PLAIN, streamUsage: true };
/** DeepSeek wants `reasoning_content` on every tool-calling assistant message, empty or not. */
const REASONING_REPLAY: Compat = { ...CHAT_USAGE, reasoningReplay: "tool_calls" };
/** Kimi wants `reasoning_content` on every assistant message, empty when there was none. */
const REASONING_REPLAY_ALWAYS: Compat = { ...REASONING_REPLAY, reasoningReplay: "always" };

/** Every built-in provider, in display order; `builtinProvider()` looks one up by id. */
export const BUILTIN_PROVIDERS: readonly Readonly<BuiltinProvider>[] = Object.freeze(([
  {
    id: "openai",
    name: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    wireApi: "responses",
    wireApis: ["responses", "chat"],
    envKey: "OPENAI_API_KEY",
    compat: { ...PLAIN, hostedWebSearch: true },
    defaultModel: "gpt-6.2-sol",
  },
  {
    id: "anthropic",
    name: "Anthropic",
    baseUrl: "https://api.anthropic.com/v1",
    wireApi: "messages",
    wireApis: ["messages", "chat"],
    envKey: "ANTHROPIC_API_KEY",
    compat: { ...PLAIN, systemMessages: true },
    defaultModel: "claude-sonnet-5-5",
  },
  {
    id: "gemini",
    name: "Google Gemini",
    // The Gemini API's own wire: `${base}/models/<model>:streamGenerateContent?alt=sse`.
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    wireApi: "gemini",
    wireApis: ["gemini"],
    envKey: "GEMINI_API_KEY",
    compat: PLAIN,
    defaultModel: "gemini-2.5-pro",
  },
  {
    id: "deepseek",
    name: "DeepSeek",
    baseUrl: "https://api.deepseek.com/v1",
    wireApi: "chat",
    wireApis: ["chat"],
    envKey: "DEEPSEEK_API_KEY",
    compat: REASONING_REPLAY,
    defaultModel: "deepseek-chat",
  },
  {
    id: "moonshot",
    name: "Moonshot AI",
    baseUrl: "https://api.moonshot.ai/v1",
    wireApi: "chat",
    wireApis: ["chat"],
    envKey: "MOONSHOT_API_KEY",
    compat: REASONING_REPLAY_ALWAYS,
    defaultModel: "kimi-k2-thinking",
  },
  {
    id: "zhipu",
    name: "Zhipu AI",
    baseUrl: "https://open.bigmodel.cn/api/paas/v4",
    wireApi: "chat",
    wireApis: ["chat"],
    // The variable Zhipu's own SDKs read.
    envKey: "ZHIPUAI_API_KEY",
    compat: CHAT_USAGE,
    defaultModel: "glm-4.6",
  },
  {
    id: "dashscope",
    name: "Alibaba Cloud Model Studio",
    baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
    wireApi: "chat",
    wireApis: ["chat"],
    envKey: "DASHSCOPE_API_KEY",
    compat: CHAT_USAGE,
    defaultModel: "qwen3-coder-plus",
  },
  {
    id: "openrouter",
    name: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    wireApi: "chat",
    wireApis: ["chat", "responses"],
    envKey: "OPENROUTER_API_KEY",
    // OpenRouter's own forms: `reasoning: {effort}`, reasoning replayed as `reasoning_details`
    // (signatures kept), `cache_control` on content parts, and no system message mid-conversation
    // (the harness's goes as <system-reminder> parts), on Chat and Responses alike.
    compat: {
      streamUsage: true,
      systemMessages: false,
      reasoningRequest: "reasoning",
      reasoningField: "reasoning_details",
      cacheMarkers: true,
    },
    defaultModel: "anthropic/claude-sonnet-4.5",
  },
  {
    id: "ollama",
    name: "Ollama",
    baseUrl: "http://localhost:11434/v1",
    wireApi: "chat",
    wireApis: ["chat", "responses", "messages"],
    compat: CHAT_USAGE,
    defaultModel: "gpt-oss:20b",
    nativeApi: "ollama",
  },
  {
    id: "lmstudio",
    name: "LM Studio",
    baseUrl: "http://localhost:1234/v1",
    wireApi: "chat",
    wireApis: ["chat", "responses", "messages"],
    compat: CHAT_USAGE,
    defaultModel: "openai/gpt-oss-20b",
  },
  {
    id: "ollama-cloud",
    name: "Ollama Cloud",
    baseUrl: "https://ollama.com/v1",
    wireApi: "chat",
    wireApis: ["chat"],
    envKey: "OLLAMA_API_KEY",
    compat: CHAT_USAGE,
    defaultModel: "gpt-oss:120b",
  },
  {
    id: "llamacpp",
    name: "llama.cpp",
    // llama-server's default port; it also serves Anthropic's Messages API (since late 2025).
    baseUrl: "http://127.0.0.1:8080/v1",
    wireApi: "chat",
    wireApis: ["chat", "messages"],
    compat: CHAT_USAGE,
    // The id "llama-server -hf ggml-org/gpt-oss-20b-GGUF" reports; without -m, what it serves.
    defaultModel: "ggml-org/gpt-oss-20b-GGUF",
  },
  {
    id: "vllm",
    name: "vLLM",
    baseUrl: "http://127.0.0.1:8000/v1",
    wireApi: "chat",
    wireApis: ["chat", "responses", "messages"],
    compat: CHAT_USAGE,
    defaultModel: "openai/gpt-oss-20b",
  },
] satisfies BuiltinProvider[]).map((row) =>
  Object.freeze({
    ...row,
    wireApis: Object.freeze([...row.wireApis]),
    compat: Object.freeze({ ...row.compat }),
  })
));

/** The built-in provider with this id, if any. */
export function builtinProvider(id: string): Readonly<BuiltinProvider> | undefined {
  return BUILTIN_PROVIDERS.find((row) => row.id === id);
}
