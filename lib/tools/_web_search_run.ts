/**
 * What `web.search` does, loaded on the first search: asks the configured backend (a SearXNG
 * instance's JSON API, or the Brave Search API with a key from the environment), filters the
 * results by domain, fetches their pages when asked and renders the list the model reads. The
 * backend's address is the user's own configuration, so it is reached directly (a SearXNG on
 * this machine works); the pages results point to are reached only through `web.fetch`'s guard.
 */
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import type {
  WebSearchBackend,
  WebSearchHit,
  WebSearchOutput,
  WebSearchQuery,
} from "./_search_backends.ts";
import { webFetch } from "./web_fetch.ts";

/** The Brave Search API's web endpoint, unless `url` overrides it. */
export const BRAVE_SEARCH_URL = "https://api.search.brave.com/res/v1/web/search";
/** Bytes of a backend's answer read at most. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** Results returned when neither the call nor `[web_search_backend]` gives a number. */
const DEFAULT_RESULTS = 5;
/** Characters of each page's content `include_content` adds at most. */
const PAGE_CHARS = 4_000;
/** Results asked of the backend when domains are filtered, so that some survive the filter. */
const FILTERED_FETCH = 20;

type SearchHit = Omit<WebSearchHit, "content">;

/** Runs one search for `web.search`. */
export async function runWebSearch(
  input: WebSearchQuery,
  ctx: ToolContext,
): Promise<WebSearchOutput> {
  const backend = ctx.webSearch;
  if (ctx.networkAllowed !== true) {
    throw new ToolError(
      "Web search is disabled: the sandbox has no network access",
      "The user can allow network access with " +
        "`-c sandbox_workspace_write.network_access=true`",
    );
  }
  if (!backend) {
    throw new ToolError(
      "Web search is not set up: no [web_search_backend] is configured",
      "The user can add a [web_search_backend] table to config.toml",
    );
  }
  const limit = input.limit ?? backend.maxResults ?? DEFAULT_RESULTS;
  const filtered = (input.allowed_domains?.length ?? 0) + (input.blocked_domains?.length ?? 0);
  const found = await searchBackend(
    backend,
    input.query,
    filtered > 0 ? FILTERED_FETCH : limit,
    ctx.signal,
  );
  const kept = found.filter((h) => domainAllowed(h.url, input)).slice(0, limit);
  const results = input.include_content ? await withPages(kept, ctx) : kept;
  return {
    query: input.query,
    backend: backend.kind,
    results,
    output: listing(input.query, results),
  };
}

/** Asks `backend` for up to `limit` results for `query`. */
async function searchBackend(
  backend: WebSearchBackend,
  query: string,
  limit: number,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const request = backend.kind === "searxng"
    ? searxngRequest(backend, query)
    : braveRequest(backend, query, limit);
  let response: Response;
  try {
    response = await fetch(request.url, { headers: request.headers, signal });
  } catch (err) {
    if (signal.aborted) throw signal.reason ?? err;
    throw new ToolError(
      `The web search backend (${backend.kind} at ${request.url.origin}) cannot be reached: ` +
        (err as Error).message,
      "Try again later; the user can check [web_search_backend] in config.toml",
    );
  }
  const answer = await readAnswer(response, backend, request.url);
  const hits = backend.kind === "searxng" ? searxngHits(answer) : braveHits(answer);
  return hits.slice(0, limit);
}

function searxngRequest(backend: WebSearchBackend, query: string) {
  const url = new URL("search", (backend.url ?? "").replace(/\/*$/, "/"));
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  return { url, headers: { accept: "application/json" } };
}

function braveRequest(backend: WebSearchBackend, query: string, limit: number) {
  if (!backend.apiKey) {
    throw new ToolError(
      `Web search is not set up: the Brave Search key is not in $${backend.apiKeyEnv}`,
      `The user can export ${backend.apiKeyEnv} before starting the session`,
    );
  }
  const url = new URL(backend.url ?? BRAVE_SEARCH_URL);
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(Math.min(limit, 20)));
  const headers = { accept: "application/json", "x-subscription-token": backend.apiKey };
  return { url, headers };
}

async function readAnswer(response: Response, backend: WebSearchBackend, url: URL) {
  const where = `${backend.kind} at ${url.origin}`;
  if (!response.ok) {
    await response.body?.cancel();
    const hint = response.status === 401 || response.status === 403
      ? `The user can check the key in $${backend.apiKeyEnv ?? "(none)"} and the instance's ` +
        "settings (SearXNG needs `json` under search.formats)"
      : "Try again later";
    throw new ToolError(`The web search backend (${where}) answered HTTP ${response.status}`, hint);
  }
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) {
    throw new ToolError(`The web search backend (${where}) sent an answer over 2 MiB`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ToolError(
      `The web search backend (${where}) did not answer JSON`,
      "The user can check that the instance serves its JSON API (`format=json`)",
    );
  }
}

function searxngHits(answer: unknown): SearchHit[] {
  const results = field(answer, "results");
  return Array.isArray(results) ? results.flatMap((r) => hit(r, "content")) : [];
}

function braveHits(answer: unknown): SearchHit[] {
  const results = field(field(answer, "web"), "results");
  return Array.isArray(results) ? results.flatMap((r) => hit(r, "description")) : [];
}

/** A result with a usable http(s) URL; anything else the backend sent is dropped. */
function hit(raw: unknown, snippetKey: string): SearchHit[] {
  const url = field(raw, "url");
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) return [];
  const title = field(raw, "title");
  const snippet = field(raw, snippetKey);
  return [{
    url,
    title: typeof title === "string" ? plain(title) : url,
    snippet: typeof snippet === "string" ? plain(snippet) : "",
  }];
}

/** Text without the `<strong>` highlighting some backends put around matches. */
function plain(text: string): string {
  return text.replace(/<\/?[a-z][^>]*>/gi, "").replace(/\s+/g, " ").trim();
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function domainAllowed(
  url: string,
  input: { allowed_domains?: string[]; blocked_domains?: string[] },
): boolean {
  const host = new URL(url).hostname.toLowerCase();
  const under = (domain: string) => {
    const d = domain.trim().toLowerCase().replace(/^\*?\./, "");
    return d !== "" && (host === d || host.endsWith(`.${d}`));
  };
  if (input.blocked_domains?.some(under)) return false;
  return !input.allowed_domains?.length || input.allowed_domains.some(under);
}

/** Each hit with its page's text, fetched through `web.fetch` (and its guard). */
async function withPages(hits: SearchHit[], ctx: ToolContext): Promise<WebSearchHit[]> {
  return await Promise.all(hits.map(async (h) => {
    try {
      const page = await webFetch.run({ url: h.url, format: "text" }, ctx);
      return { ...h, content: page.content.slice(0, PAGE_CHARS) };
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      return { ...h, content: `(page not fetched: ${(err as Error).message})` };
    }
  }));
}

function listing(query: string, hits: WebSearchHit[]): string {
  if (hits.length === 0) return `No web results for "${query}".`;
  const items = hits.map((h, i) =>
    [
      `${i + 1}. ${h.title}`,
      `   ${h.url}`,
      ...(h.snippet ? [`   ${h.snippet}`] : []),
      ...(h.content !== undefined ? ["", indent(h.content)] : []),
    ].join("\n")
  );
  return `Web results for "${query}":\n\n${items.join("\n\n")}`;
}

function indent(text: string): string {
  return text.trim().split("\n").map((line) => line.trim() ? `   ${line}` : "").join("\n");
}
