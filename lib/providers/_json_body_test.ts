import assert from "node:assert/strict";
import { post } from "./_http.ts";
import { jsonBody, jsonPieces } from "./_json_body.ts";

Deno.test("jsonPieces() joins to exactly what JSON.stringify gives", () => {
  const values: unknown[] = [
    { model: "m", messages: [{ role: "user", content: 'hi "there"\n' }, { a: [1, 2] }], n: 1 },
    { skip: undefined, fn: () => 1, nested: { list: [undefined, () => 2, null, "x"] }, t: true },
    [],
    {},
    "text",
    42,
    null,
    { date: new Date(0), big: "é".repeat(3) },
  ];
  for (const value of values) assert.equal(jsonPieces(value).join(""), JSON.stringify(value));
});

Deno.test("jsonBody() is a JSON Blob whose text and size are the whole body", async () => {
  const body = { model: "m", messages: Array.from({ length: 50 }, (_, i) => ({ i, t: "ü" })) };
  const blob = jsonBody(body);
  const text = JSON.stringify(body);
  assert.equal(await blob.text(), text);
  assert.equal(blob.size, new TextEncoder().encode(text).length);
  assert.equal(blob.type, "application/json");
});

Deno.test("post() sends the pieces with a Content-Length, not chunked, and the exact JSON", async () => {
  const seen: Array<{ length: string | null; chunked: string | null; text: string }> = [];
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (req) => {
      const text = await req.text();
      seen.push({
        length: req.headers.get("content-length"),
        chunked: req.headers.get("transfer-encoding"),
        text,
      });
      return new Response("{}", { headers: { "content-type": "application/json" } });
    },
  );
  const body = { messages: Array.from({ length: 40 }, (_, i) => ({ i, text: "x".repeat(3000) })) };
  const url = `http://127.0.0.1:${server.addr.port}/`;
  const response = await post({ url, headers: new Headers(), body }, new AbortController().signal);
  await response.body?.cancel();
  const text = JSON.stringify(body);
  assert.deepEqual(seen, [{ length: String(text.length), chunked: null, text }]);
});
