import * as z from "zod";
import { defineCapability } from "./capability.ts";
import type { WebSearchOutput } from "./_search_backends.ts";

export type { WebSearchHit, WebSearchOutput } from "./_search_backends.ts";

/**
 * Input of `web.search`. Harness mapping: Claude `WebSearch` {query, allowed_domains,
 * blocked_domains}; Qwen `web_search` and Gemini `google_web_search` {query}; Kimi `SearchWeb`
 * {query, limit, include_content}.
 */
export const webSearchInput = z.object({
  query: z.string().trim().min(1, "Give a search query"),
  limit: z.int().min(1).max(20).optional().describe("Results to return (default 5)"),
  include_content: z.boolean().optional().describe("Also fetch each result's page"),
  allowed_domains: z.array(z.string()).optional().describe("Keep only results from these"),
  blocked_domains: z.array(z.string()).optional().describe("Drop results from these"),
});

/**
 * Searches the web through the backend in `[web_search_backend]`; refused when the sandbox has
 * no network or no backend is configured (the session then leaves the tools out).
 */
export const webSearch = defineCapability({
  id: "web.search",
  input: webSearchInput,
  mutates: false,
  async run(input, ctx): Promise<WebSearchOutput> {
    // The queries and their rendering load on the first search, not at start-up.
    const { runWebSearch } = await import("./_web_search_run.ts");
    return await runWebSearch(input, ctx);
  },
});
