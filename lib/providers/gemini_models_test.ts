import assert from "node:assert/strict";
import { testSettings } from "./_testing.ts";
import { catalogProvider, loadCatalog } from "./catalog.ts";
import { checkKey } from "./key_check.ts";
import { servedModels } from "./served_models.ts";

/** Gemini's models list on 127.0.0.1: `x-goog-api-key` "good" only, a bad key answered as Gemini does. */
function geminiModels() {
  const seen: Array<{ path: string; key: string | null; auth: string | null }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const key = request.headers.get("x-goog-api-key");
    seen.push({
      path: new URL(request.url).pathname,
      key,
      auth: request.headers.get("authorization"),
    });
    if (key === "good") {
      return Response.json({ models: [{ name: "models/gemini-a" }, { name: "models/gemma-b" }] });
    }
    return Response.json({
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [{ reason: "API_KEY_INVALID" }],
      },
    }, { status: 400 });
  });
  return { baseUrl: `http://127.0.0.1:${server.addr.port}/v1beta`, seen, server };
}

Deno.test("servedModels() lists a custom gemini-wire provider's models by their ids", async () => {
  const { baseUrl, seen, server } = geminiModels();
  await using _ = server;
  const settings = testSettings(baseUrl, "gemini", { apiKey: "good" });
  assert.deepEqual(await servedModels(settings, AbortSignal.timeout(5000)), [
    { id: "gemini-a" },
    { id: "gemma-b" },
  ]);
  assert.deepEqual(seen, [{ path: "/v1beta/models", key: "good", auth: null }]);
});

Deno.test("checkKey() sends x-goog-api-key on the gemini wire and reads API_KEY_INVALID as refused", async () => {
  const { baseUrl, server } = geminiModels();
  await using _ = server;
  const target = { baseUrl, wireApi: "gemini" as const, headers: {}, queryParams: {} };
  assert.deepEqual(await checkKey(target, "good"), { status: "accepted" });
  const bad = await checkKey(target, "bad");
  assert.equal(bad.status, "refused");
  assert.match((bad as { detail: string }).detail, /HTTP 400: API key not valid/);
});

Deno.test("the built-in gemini provider finds its models in the catalog under Google's id", async () => {
  const catalog = await loadCatalog();
  const settings = { id: "gemini", baseUrl: "https://generativelanguage.googleapis.com/v1beta" };
  const ids = catalogProvider(catalog, settings)?.models.map((m) => m.id) ?? [];
  assert.ok(ids.includes("gemini-2.5-pro"), JSON.stringify(ids));
  assert.ok(ids.every((id) => id.startsWith("gemini-")), JSON.stringify(ids));
});
