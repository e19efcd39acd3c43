import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import { collect, serveReplies, simpleRequest, testSettings } from "./_testing.ts";
import { loadCatalog } from "./catalog.ts";
import { takesImages } from "./image_gate.ts";
import { openProvider } from "./mod.ts";

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** A conversation with an image in the user's message and one in a tool's result. */
const MESSAGES: Message[] = [
  {
    role: "user",
    blocks: [{ type: "text", text: "what is this?" }, {
      type: "image",
      mime: "image/png",
      base64: PIXEL,
    }],
  },
  {
    role: "assistant",
    blocks: [{ type: "tool_call", id: "c1", name: "view", args: {} }],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "c1",
    name: "view",
    blocks: [{ type: "text", text: "the screenshot" }, {
      type: "image",
      mime: "image/png",
      base64: PIXEL,
    }],
    isError: false,
  },
];

/** The body a chat provider sends for `model` with the images above. */
async function sentBody(model: string): Promise<string> {
  await using server = serveReplies([{ status: 400, body: '{"error":{"message":"stop"}}' }]);
  const provider = await openProvider(testSettings(server.baseUrl, "chat", { id: "openai" }));
  await collect(
    provider.stream(simpleRequest({ model, messages: MESSAGES }), AbortSignal.timeout(10_000)),
  );
  return JSON.stringify(server.requests[0].body);
}

Deno.test("takesImages() follows the catalog's input modalities; an unknown model keeps its images", async () => {
  const catalog = await loadCatalog();
  const deepseek = { id: "deepseek", baseUrl: "https://api.deepseek.com" };
  assert.equal(takesImages(catalog, deepseek, "deepseek-reasoner"), false);
  assert.equal(takesImages(catalog, { id: "openai", baseUrl: "" }, "gpt-4o"), true);
  assert.equal(takesImages(catalog, { id: "local", baseUrl: "" }, "my-own-model"), true);
});

Deno.test("a model without image input reads a one-line note in place of each image", async () => {
  const body = await sentBody("deepseek-reasoner");
  assert.doesNotMatch(body, /image_url|iVBORw0KGgo/);
  const notes = body.match(
    /An image \(image\/png\) was left out: deepseek-reasoner does not take images/g,
  );
  assert.equal(notes?.length, 2, body);
  // The control: a model that takes images gets both.
  const vision = await sentBody("gpt-4o");
  assert.equal(vision.match(/iVBORw0KGgo/g)?.length, 2, vision);
  assert.doesNotMatch(vision, /was left out/);
});
