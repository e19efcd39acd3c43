/**
 * The models a custom OpenAI-compatible provider's server lists (`GET <base_url>/models`, the
 * `/v1/models` of a base URL ending in `/v1`), so that `/model NAME` can check a name against
 * them as it checks a hosted provider's against the catalog.
 */
import { endpointUrl } from "./_http.ts";
import { rec, str } from "./_blocks.ts";
import { builtinProvider } from "./builtin.ts";
import { localJson } from "./local_json.ts";
import type { ProviderSettings } from "./types.ts";

/**
 * The ids `settings`' server lists, for a provider of the config's own (not a built-in one) on
 * the Chat, Responses or Gemini wire; undefined for any other. Rejects when the server cannot be
 * asked or its answer is not a models list.
 */
export async function servedModels(
  settings: ProviderSettings,
  signal: AbortSignal,
): Promise<Array<{ id: string }> | undefined> {
  if (builtinProvider(settings.id) || settings.wireApi === "messages") return undefined;
  const url = endpointUrl(settings.baseUrl, { path: "/models", query: settings.queryParams });
  const gemini = settings.wireApi === "gemini";
  const auth: Record<string, string> = !settings.apiKey
    ? {}
    : gemini
    ? { "x-goog-api-key": settings.apiKey }
    : { authorization: `Bearer ${settings.apiKey}` };
  const headers: Record<string, string> = {
    accept: "application/json",
    ...auth,
    ...settings.headers,
  };
  const answer = rec(await localJson(url, { headers, signal }));
  if (gemini && Array.isArray(answer.models)) {
    // Gemini lists `{models: [{name: "models/<id>"}]}`.
    return answer.models.map(rec).flatMap((m) => {
      const name = str(m.name)?.replace(/^models\//, "");
      return name ? [{ id: name }] : [];
    });
  }
  const data = answer.data;
  if (!Array.isArray(data)) throw new Error(`${url}: the answer has no "data" list of models`);
  return data.map(rec).flatMap((m) => str(m.id) ? [{ id: str(m.id)! }] : []);
}
