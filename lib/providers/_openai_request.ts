/** The request both OpenAI wire adapters send: URL, bearer authentication and body. */
import { endpointUrl, requestHeaders, type WireRequest } from "./_http.ts";
import type { ProviderSettings } from "./types.ts";

/**
 * A request to `${base_url}${path}`: `base_url` is used as given (it includes `/v1`). The key
 * goes in `Authorization: Bearer`, which is left out for keyless local servers.
 */
export function openaiRequest(
  settings: ProviderSettings,
  opts: {
    path: "/chat/completions" | "/responses";
    body: unknown;
    /** The harness's headers (see `requestHeaders`). */
    headers?: Record<string, string>;
  },
): WireRequest {
  const auth: Record<string, string> = settings.apiKey
    ? { authorization: `Bearer ${settings.apiKey}` }
    : {};
  return {
    url: endpointUrl(settings.baseUrl, { path: opts.path, query: settings.queryParams }),
    headers: requestHeaders(settings, auth, opts.headers),
    body: opts.body,
  };
}
