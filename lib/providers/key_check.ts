/**
 * One cheap request that tells whether a provider takes an API key: the provider's models list
 * (`GET <base_url>/models`; on the Messages wire the `/v1/models` beside `/v1/messages`), with
 * the key sent as the provider's wire sends it (Gemini: `x-goog-api-key`). Nothing is generated
 * and nothing is billed.
 */
import { endpointUrl, trimBaseUrl } from "./_http.ts";
import type { ProviderSettings } from "./types.ts";

/** Long enough for a slow hosted API, short enough that a person waiting does not give up. */
const CHECK_TIMEOUT_MS = 10_000;
/** The most of an error reply's message that is shown. */
const MAX_DETAIL_CHARS = 200;

/** What the check found: the key works, the server refused it, or the check told nothing. */
export type KeyCheck =
  | { status: "accepted" }
  | { status: "refused"; detail: string }
  | { status: "unknown"; detail: string };

/** The provider fields the check reads. */
export type KeyCheckTarget = Pick<
  ProviderSettings,
  "baseUrl" | "wireApi" | "headers" | "queryParams"
>;

/** The models-list request of `target` carrying `key`. */
function keyCheckRequest(
  target: KeyCheckTarget,
  key: string,
): { url: string; headers: Headers } {
  const messages = target.wireApi === "messages";
  const versioned = trimBaseUrl(new URL(target.baseUrl).pathname).endsWith("/v1");
  const path = messages && !versioned ? "/v1/models" : "/models";
  const auth: Record<string, string> = messages
    ? { "x-api-key": key, "anthropic-version": "2023-06-01" }
    : target.wireApi === "gemini"
    ? { "x-goog-api-key": key }
    : { authorization: `Bearer ${key}` };
  const headers = new Headers({ accept: "application/json", ...auth });
  // Configured headers win, as on every model request (a gateway's own auth header).
  for (const [name, value] of Object.entries(target.headers)) headers.set(name, value);
  return { url: endpointUrl(target.baseUrl, { path, query: target.queryParams }), headers };
}

/**
 * Sends the models-list request with `key`: 2xx accepts it, 401 and 403 (and Gemini's 400
 * API_KEY_INVALID) refuse it.
 */
export async function checkKey(
  target: KeyCheckTarget,
  key: string,
  opts: { timeoutMs?: number } = {},
): Promise<KeyCheck> {
  const { url, headers } = keyCheckRequest(target, key);
  let response: Response;
  try {
    const signal = AbortSignal.timeout(opts.timeoutMs ?? CHECK_TIMEOUT_MS);
    response = await fetch(url, { headers, signal });
  } catch (error) {
    const detail = (error as Error).name === "TimeoutError"
      ? `no answer from ${new URL(url).host} in ${(opts.timeoutMs ?? CHECK_TIMEOUT_MS) / 1000} s`
      : `cannot reach ${new URL(url).host}: ${(error as Error).message}`;
    return { status: "unknown", detail };
  }
  const text = await response.text().catch(() => "");
  if (response.ok) return { status: "accepted" };
  const detail = `HTTP ${response.status}${errorMessage(text)}`;
  // Gemini refuses a bad key with 400 and the reason API_KEY_INVALID.
  const geminiRefused = response.status === 400 && text.includes("API_KEY_INVALID");
  if (response.status === 401 || response.status === 403 || geminiRefused) {
    return { status: "refused", detail };
  }
  return { status: "unknown", detail: `GET ${new URL(url).pathname} answered ${detail}` };
}

/** `: message` from an OpenAI- or Anthropic-style error body, else nothing. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === "string"
      ? body.error
      : body.error?.message ?? body.message;
    if (typeof message !== "string" || !message.trim()) return "";
    const oneLine = message.trim().replace(/\s+/g, " ");
    return `: ${
      oneLine.length > MAX_DETAIL_CHARS ? `${oneLine.slice(0, MAX_DETAIL_CHARS)}…` : oneLine
    }`;
  } catch {
    return "";
  }
}
