/**
 * Issue 32 group 9: web search through every harness that has it, against a fake SearXNG on
 * 127.0.0.1 (and a fake Brave Search endpoint), and left out of the request without network or
 * without a backend.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import { advertisedTools } from "../lib/harness/deferred.ts";
import { call, scriptedProvider } from "../lib/loop/_test_loop.ts";
import { sessionHarness } from "../lib/session/agent_session.ts";
import { defaultValues } from "../lib/config/schema.ts";
import type { WebSearchBackend } from "../lib/tools/_search_backends.ts";
import { harnessTurn } from "./_harness_turn.ts";
import { approvalDecision, fetchUrlOf } from "../lib/approval/policy.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

/** A SearXNG JSON API on 127.0.0.1 that answers every query with two results, recording them. */
function fakeSearxng() {
  const queries: Array<{ q: string | null; format: string | null; path: string }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    queries.push({
      q: url.searchParams.get("q"),
      format: url.searchParams.get("format"),
      path: url.pathname,
    });
    return Response.json({
      query: url.searchParams.get("q"),
      results: [
        {
          title: "Deno <strong>2.9</strong> released",
          url: "https://deno.com/blog/v2.9",
          content: "What is new in Deno 2.9",
        },
        { title: "Mirror", url: "https://mirror.example.org/deno", content: "A copy" },
        { title: "Not a web page", url: "javascript:alert(1)", content: "dropped" },
      ],
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    queries,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** One turn of `harnessId` with `replies`, web search on; the tool results the model read. */
function searchTurn(
  harnessId: string,
  replies: Parameters<typeof scriptedProvider>[0],
  backend: WebSearchBackend,
) {
  return harnessTurn(harnessId, replies, (ctx) => {
    ctx.networkAllowed = true;
    ctx.webSearch = backend;
  });
}

const done = [{ type: "text" as const, text: "Done." }];

Deno.test("claude-code's WebSearch, loaded by ToolSearch, asks SearXNG and keeps allowed domains", async () => {
  await using searx = fakeSearxng();
  const { results } = await searchTurn("claude-code", [
    [call("t1", "ToolSearch", { query: "select:WebSearch" })],
    [call("w1", "WebSearch", { query: "deno 2.9 release", allowed_domains: ["deno.com"] })],
    done,
  ], { kind: "searxng", url: searx.url });
  assert.deepEqual(searx.queries, [{ q: "deno 2.9 release", format: "json", path: "/search" }]);
  assert.match(results[1], /^Web results for "deno 2\.9 release":/);
  assert.match(results[1], /1\. Deno 2\.9 released\n {3}https:\/\/deno\.com\/blog\/v2\.9\n/);
  assert.ok(!results[1].includes("mirror.example.org"), results[1]);
  assert.ok(!results[1].includes("javascript:"), results[1]);
});

Deno.test("qwen-code's deferred web_search runs through tool_call against SearXNG", async () => {
  await using searx = fakeSearxng();
  const { results } = await searchTurn("qwen-code", [
    [call("c1", "tool_call", { name: "web_search", arguments: { query: "qwen news" } })],
    done,
  ], { kind: "searxng", url: `${searx.url}/` });
  assert.deepEqual(searx.queries.map((q) => q.q), ["qwen news"]);
  assert.match(results[0], /2\. Mirror\n {3}https:\/\/mirror\.example\.org\/deno\n {3}A copy/);
});

Deno.test("gemini-cli's google_web_search is sent and returns the results as untrusted context", async () => {
  await using searx = fakeSearxng();
  const { results, requests } = await searchTurn("gemini-cli", [
    [call("g1", "google_web_search", { query: "gemini cli" })],
    done,
  ], { kind: "searxng", url: searx.url });
  assert.ok(requests[0].tools.some((t) => t.name === "google_web_search"));
  assert.match(results[0], /^<untrusted_context>\nWeb results for "gemini cli":/);
  assert.match(results[0], /<\/untrusted_context>$/);
});

Deno.test("kimi-cli's SearchWeb honours limit against the Brave Search API with its key", async () => {
  const seen: Array<{ token: string | null; count: string | null; q: string | null }> = [];
  await using brave = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    seen.push({
      token: req.headers.get("x-subscription-token"),
      count: url.searchParams.get("count"),
      q: url.searchParams.get("q"),
    });
    return Response.json({
      web: {
        results: [
          { title: "One", url: "https://one.example/", description: "first" },
          { title: "Two", url: "https://two.example/", description: "second" },
        ],
      },
    });
  });
  const url = `http://127.0.0.1:${brave.addr.port}/res/v1/web/search`;
  const { results } = await searchTurn("kimi-cli", [
    [call("s1", "SearchWeb", { query: "kimi", limit: 1 })],
    done,
  ], { kind: "brave", url, apiKey: "brave-key", apiKeyEnv: "BRAVE_SEARCH_API_KEY" });
  assert.deepEqual(seen, [{ token: "brave-key", count: "1", q: "kimi" }]);
  assert.match(results[0], /1\. One\n {3}https:\/\/one\.example\/\n {3}first/);
  assert.ok(!results[0].includes("Two"), results[0]);
});

Deno.test("a Brave backend without its key is a clear error naming the variable", async () => {
  const { results } = await searchTurn("kimi-cli", [
    [call("s1", "SearchWeb", { query: "kimi" })],
    done,
  ], { kind: "brave", apiKeyEnv: "MY_BRAVE_KEY" });
  assert.match(results[0], /the Brave Search key is not in \$MY_BRAVE_KEY/);
  assert.match(results[0], /export MY_BRAVE_KEY/);
});

Deno.test("the web search tools are left out without network or without a backend", async () => {
  const backend = { kind: "searxng" as const, url: "http://127.0.0.1:9" };
  const values = (network: boolean, withBackend: boolean) => {
    const d = defaultValues();
    return {
      ...d,
      sandbox_workspace_write: { ...d.sandbox_workspace_write, network_access: network },
      ...(withBackend ? { web_search_backend: backend } : {}),
    };
  };
  const cases: Array<[string, string]> = [
    ["claude-code", "WebSearch"],
    ["qwen-code", "web_search"],
    ["gemini-cli", "google_web_search"],
    ["kimi-cli", "SearchWeb"],
  ];
  for (const [id, name] of cases) {
    const h = await loadHarness(id, { builtinDir: HARNESSES });
    const has = (network: boolean, withBackend: boolean) =>
      sessionHarness(h, values(network, withBackend)).tools.some((t) =>
        t.declaration.name === name
      );
    assert.ok(has(true, true), `${id}: ${name} with network and a backend`);
    assert.ok(!has(false, true), `${id}: ${name} without network`);
    assert.ok(!has(true, false), `${id}: ${name} without a backend`);
  }
  const gemini = sessionHarness(
    await loadHarness("gemini-cli", { builtinDir: HARNESSES }),
    values(false, true),
  );
  const sent = advertisedTools(gemini, new Map()).map((t) => t.name);
  assert.ok(!sent.includes("google_web_search"), sent.join(", "));
});

Deno.test("a web search asks first under untrusted, naming its query, like a web fetch", () => {
  const sandbox = { mode: "workspace-write" as const, enforced: true };
  const decide = (policy: "untrusted" | "on-request") =>
    approvalDecision(policy, {
      capability: "web.search",
      mutates: false,
      input: { query: "deno 2.9" },
      sandbox,
    }).decision;
  assert.equal(decide("untrusted"), "ask");
  assert.equal(decide("on-request"), "allow");
  assert.equal(fetchUrlOf({ query: "deno 2.9" }), "web search: deno 2.9");
});
