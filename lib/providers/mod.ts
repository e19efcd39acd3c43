/** Model providers: open one from resolved settings. Each adapter loads on first use. */
import { ConfigError } from "../errors.ts";
import { loadCatalog } from "./catalog.ts";
import { gateImages } from "./image_gate.ts";
import type { Provider, ProviderSettings } from "./types.ts";

export type { WireApi } from "./types.ts";
export { BUILTIN_PROVIDERS, type BuiltinProvider } from "./builtin.ts";
export {
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_RETRIES,
} from "./_drive.ts";
export { DEFAULT_STREAM_MAX_LINE_BYTES, DEFAULT_STREAM_MAX_REPLY_BYTES } from "./_stream_limits.ts";

/**
 * Opens a provider for `settings`, importing only the adapter its wire API needs: Ollama's native
 * `/api/chat` when `nativeApi` says so, else `/chat/completions`, `/responses`, `/messages` or
 * Gemini's `/models/<model>:streamGenerateContent` under the base URL (for the `ollama`
 * provider, its Messages adapter). Images reach only models that take them (`gateImages()`).
 */
export async function openProvider(settings: ProviderSettings): Promise<Provider> {
  return gateImages(await openAdapter(settings), await loadCatalog());
}

async function openAdapter(settings: ProviderSettings): Promise<Provider> {
  if (settings.nativeApi === "ollama") {
    return (await import("./ollama_chat.ts")).createOllamaProvider(settings);
  }
  switch (settings.wireApi) {
    case "chat":
      return (await import("./openai_chat.ts")).createChatProvider(settings);
    case "responses":
      return (await import("./openai_responses.ts")).createResponsesProvider(settings);
    case "messages":
      // Ollama's /v1/messages takes thinking and tools only from models that have them.
      if (settings.id === "ollama") {
        return (await import("./ollama_messages.ts")).createOllamaMessagesProvider(settings);
      }
      return (await import("./anthropic_messages.ts")).createMessagesProvider(settings);
    case "gemini":
      return (await import("./gemini.ts")).createGeminiProvider(settings);
    default:
      throw new ConfigError(
        `Unknown wire_api "${settings.wireApi}" for provider "${settings.id}"`,
        {
          hint: 'Use "responses", "chat", "messages" or "gemini"',
        },
      );
  }
}
