import assert from "node:assert/strict";
import { checkKey, type KeyCheckTarget } from "./key_check.ts";

/** A models endpoint on 127.0.0.1 that takes only `good`, the way each wire sends it. */
function modelsServer() {
  const seen: Array<{ path: string; query: string; headers: Headers }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push({ path: url.pathname, query: url.search, headers: request.headers });
    const lists = ["/v1/models", "/anthropic/v1/models"];
    if (!lists.includes(url.pathname)) return new Response("no route", { status: 404 });
    const bearer = request.headers.get("authorization") === "Bearer good";
    const xApiKey = request.headers.get("x-api-key") === "good";
    if (bearer || xApiKey) return Response.json({ data: [{ id: "m" }] });
    return Response.json({ error: { message: "Incorrect API key\nprovided" } }, { status: 401 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

function target(baseUrl: string, more: Partial<KeyCheckTarget> = {}): KeyCheckTarget {
  return { baseUrl, wireApi: "chat", headers: {}, queryParams: {}, ...more };
}

Deno.test("checkKey() accepts a key the models list takes and refuses one it answers 401", async () => {
  const server = modelsServer();
  try {
    const chat = target(`${server.origin}/v1`, { queryParams: { "api-version": "1" } });
    assert.deepEqual(await checkKey(chat, "good"), { status: "accepted" });
    assert.deepEqual(await checkKey(chat, "bad"), {
      status: "refused",
      detail: "HTTP 401: Incorrect API key provided",
    });
    assert.equal(server.seen[0].path, "/v1/models");
    assert.equal(server.seen[0].query, "?api-version=1");
  } finally {
    await server.close();
  }
});

Deno.test("checkKey() sends x-api-key to the Messages wire's /v1/models, versioned or not", async () => {
  const server = modelsServer();
  try {
    for (const base of [`${server.origin}/v1`, `${server.origin}/anthropic`]) {
      const messages = target(base, { wireApi: "messages" });
      assert.deepEqual(await checkKey(messages, "good"), { status: "accepted" });
    }
    assert.deepEqual(server.seen.map((s) => s.path), ["/v1/models", "/anthropic/v1/models"]);
    assert.equal(server.seen[0].headers.get("anthropic-version"), "2023-06-01");
    assert.equal(server.seen[0].headers.get("authorization"), null);
  } finally {
    await server.close();
  }
});

Deno.test("checkKey() tells nothing when there is no models list or no server", async () => {
  const server = modelsServer();
  const gone = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response());
  const goneUrl = `http://127.0.0.1:${gone.addr.port}/v1`;
  await gone.shutdown();
  try {
    const noList = await checkKey(target(`${server.origin}/other`), "good");
    assert.equal(noList.status, "unknown");
    assert.match((noList as { detail: string }).detail, /answered HTTP 404/);
    const down = await checkKey(target(goneUrl), "good");
    assert.equal(down.status, "unknown");
    assert.match((down as { detail: string }).detail, /^cannot reach 127\.0\.0\.1:/);
  } finally {
    await server.close();
  }
});
