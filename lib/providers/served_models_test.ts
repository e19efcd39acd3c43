import assert from "node:assert/strict";
import { servedModels } from "./served_models.ts";
import { testSettings } from "./_testing.ts";

Deno.test("servedModels() reads a custom provider's /models with its key; built-in and Messages providers have none", async () => {
  const seen: Array<{ path: string; auth: string | null }> = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ path: new URL(req.url).pathname, auth: req.headers.get("authorization") });
    return Response.json({ object: "list", data: [{ id: "a" }, { id: 7 }, { id: "b" }] });
  });
  const baseUrl = `http://127.0.0.1:${server.addr.port}/v1`;
  const signal = AbortSignal.timeout(5000);
  assert.deepEqual(await servedModels(testSettings(baseUrl, "chat"), signal), [
    { id: "a" },
    { id: "b" },
  ]);
  assert.deepEqual(seen, [{ path: "/v1/models", auth: "Bearer sk-test" }]);
  const openai = testSettings(baseUrl, "responses", { id: "openai" });
  assert.equal(await servedModels(openai, signal), undefined);
  assert.equal(await servedModels(testSettings(baseUrl, "messages"), signal), undefined);
  assert.equal(seen.length, 1, "nothing asked for those");
});

Deno.test("servedModels() rejects when the server is not there or lists nothing", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ models: [] }),
  );
  const signal = AbortSignal.timeout(5000);
  const listing = testSettings(`http://127.0.0.1:${server.addr.port}/v1`, "chat");
  await assert.rejects(servedModels(listing, signal), /has no "data" list of models/);
  await server.shutdown();
  await assert.rejects(servedModels(listing, signal));
});
