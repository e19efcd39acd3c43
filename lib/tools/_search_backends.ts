/**
 * The web-search backend `web.search` queries (`[web_search_backend]` in config.toml), as the
 * session hands it to the tools; the queries themselves are in `_web_search_run.ts`, loaded on
 * the first search.
 */
/** The environment variable the Brave key is read from unless `api_key_env` names another. */
export const BRAVE_KEY_ENV = "BRAVE_SEARCH_API_KEY";

/** A configured backend, as the session hands it to the tools (`ToolContext.webSearch`). */
export interface WebSearchBackend {
  kind: "searxng" | "brave";
  /** SearXNG: the instance's base URL; Brave: the endpoint (default `BRAVE_SEARCH_URL`). */
  url?: string;
  /** The key (Brave), read from `apiKeyEnv` when the session started; absent when unset. */
  apiKey?: string;
  apiKeyEnv?: string;
  /** Results returned when the call asks for no number. */
  maxResults?: number;
}

/** The backend of `[web_search_backend]` with its key looked up in `env`; undefined when unset. */
export function webSearchBackendOf(
  table:
    | { kind: "searxng" | "brave"; url?: string; api_key_env?: string; max_results?: number }
    | undefined,
  env: Record<string, string>,
): WebSearchBackend | undefined {
  if (!table) return undefined;
  const apiKeyEnv = table.kind === "brave" ? table.api_key_env ?? BRAVE_KEY_ENV : undefined;
  const apiKey = apiKeyEnv ? env[apiKeyEnv] : undefined;
  return {
    kind: table.kind,
    url: table.url,
    apiKeyEnv,
    ...(apiKey ? { apiKey } : {}),
    maxResults: table.max_results,
  };
}

/** What one search asks for (`web.search`'s input, checked). */
export interface WebSearchQuery {
  query: string;
  limit?: number;
  include_content?: boolean;
  allowed_domains?: string[];
  blocked_domains?: string[];
}

/** One result, with its page when `include_content` asked for it. */
export interface WebSearchHit {
  title: string;
  url: string;
  snippet: string;
  content?: string;
}

/** Result of `web.search`. */
export interface WebSearchOutput {
  query: string;
  /** The backend that answered (`searxng`, `brave`). */
  backend: string;
  results: WebSearchHit[];
  /** The results as the model reads them: a numbered list of title, URL and snippet. */
  output: string;
}
