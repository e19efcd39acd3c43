/** The OpenAI SDK client both OpenAI wire adapters use, loaded on first request. */
import type OpenAI from "openai";
import { sdkClientOptions, trimBaseUrl } from "./_http.ts";
import type { ProviderSettings } from "./types.ts";

/**
 * Creates an OpenAI SDK client for `settings`. `base_url` is used as given (it includes `/v1`);
 * the SDK appends `/chat/completions` or `/responses`. No `OPENAI_*` variable is consulted.
 */
export async function openaiClient(settings: ProviderSettings): Promise<OpenAI> {
  const { default: OpenAIClient } = await import("openai");
  const base = sdkClientOptions(settings, {
    baseUrl: trimBaseUrl(settings.baseUrl),
    customHeadersEnv: "OPENAI_CUSTOM_HEADERS",
  });
  return new OpenAIClient({
    ...base,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
  });
}
