/**
 * The fake provider's Gemini wire, read by Google's official SDK (`@google/genai`): if the SDK
 * accepts the stream and recovers the scripted thoughts, text, function calls, signature and
 * usage, and its replay of them passes the fake's invariants, the gemini adapter under test is
 * reading something real.
 */
import assert from "node:assert/strict";
import { type Content, GoogleGenAI, type Part } from "@google/genai";
import { loadScript } from "./script.ts";
import { startFakeProvider } from "./server.ts";

const LIST_FILES = new URL("../fixtures/scripts/list_files.jsonl", import.meta.url);
const SCHEMA = {
  type: "object",
  properties: { command: { type: "string" }, timeout: { type: "number" } },
  required: ["command"],
};
const ARGS = { command: "ls -la", timeout: 5000 };
const THINKING = "The user wants a listing, so run ls.";
const TOOLS = [{
  functionDeclarations: [{
    name: "Bash",
    description: "Runs a command",
    parametersJsonSchema: SCHEMA,
  }],
}];

function client(origin: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: origin } });
}

Deno.test("startFakeProvider() streams Gemini replies that the @google/genai SDK parses", async () => {
  await using fake = startFakeProvider(await loadScript(LIST_FILES), { apiKey: "test-key" });
  const ai = client(fake.origin);
  const contents: Content[] = [{ role: "user", parts: [{ text: "Please list the files." }] }];
  const config = {
    systemInstruction: "Be terse.",
    tools: TOOLS,
    thinkingConfig: { includeThoughts: true },
  };
  const stream = await ai.models.generateContentStream({ model: "gemini-test", contents, config });
  let thoughts = "";
  let text = "";
  let chunks = 0;
  const parts: Part[] = [];
  let finish: string | undefined;
  let usage;
  for await (const chunk of stream) {
    chunks++;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.thought) thoughts += part.text ?? "";
      else if (part.text) text += part.text;
      if (part.functionCall || part.thoughtSignature) parts.push(part);
    }
    finish = candidate?.finishReason ?? finish;
    usage = chunk.usageMetadata ?? usage;
  }
  assert.equal(thoughts, THINKING);
  assert.equal(text, "Listing the files.");
  assert.ok(chunks > 5, `expected several chunks, got ${chunks}`);
  const [call] = parts;
  assert.deepEqual(call.functionCall, { id: "call_1", name: "Bash", args: ARGS });
  assert.equal(typeof call.thoughtSignature, "string");
  assert.equal(finish, "STOP");
  assert.equal(usage?.promptTokenCount, 120);
  assert.equal(usage?.cachedContentTokenCount, 100);
  assert.equal(usage?.thoughtsTokenCount, 7);
  assert.equal(usage?.candidatesTokenCount, 23);

  contents.push({ role: "model", parts: [{ text }, call] }, {
    role: "user",
    parts: [{ functionResponse: { id: "call_1", name: "Bash", response: { output: "a.txt" } } }],
  });
  const second = await ai.models.generateContent({ model: "gemini-test", contents, config });
  assert.equal(second.text, "There is one file: a.txt.");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.requests[0].path, "/v1beta/models/gemini-test:streamGenerateContent");
  assert.equal(fake.requests[1].path, "/v1beta/models/gemini-test:generateContent");
  assert.equal(fake.requests[0].headers["x-goog-api-key"], "test-key");
});

Deno.test("the fake provider's Gemini errors and model list read as the SDK expects", async () => {
  const script = [{ error: { status: 429 } }, { reply: { text: "ok" } }];
  await using fake = startFakeProvider(script, { apiKey: "test-key", models: ["gemini-x"] });
  const ai = client(fake.origin);
  const contents = [{ role: "user", parts: [{ text: "hi" }] }];
  await assert.rejects(
    ai.models.generateContent({ model: "gemini-x", contents }),
    (error: Error & { status?: number }) => {
      assert.equal(error.status, 429);
      assert.match(error.message, /RESOURCE_EXHAUSTED|Scripted error 429/);
      return true;
    },
  );
  const names: string[] = [];
  for await (const model of await ai.models.list()) names.push(model.name ?? "");
  assert.deepEqual(names, ["models/gemini-x"]);
  const wrongKey = new GoogleGenAI({ apiKey: "nope", httpOptions: { baseUrl: fake.origin } });
  await assert.rejects(
    wrongKey.models.generateContent({ model: "gemini-x", contents }),
    (error: Error & { status?: number }) => error.status === 401,
  );
  assert.equal(fake.remaining(), 1);
});

Deno.test("the fake provider refuses a Gemini function call replayed without its thoughtSignature", async () => {
  await using fake = startFakeProvider(await loadScript(LIST_FILES), { apiKey: "test-key" });
  const ai = client(fake.origin);
  const contents: Content[] = [{ role: "user", parts: [{ text: "Please list the files." }] }];
  const config = { systemInstruction: "Be terse.", tools: TOOLS };
  const first = await ai.models.generateContent({ model: "gemini-test", contents, config });
  const call = first.candidates?.[0]?.content?.parts?.find((p) => p.functionCall);
  assert.equal(typeof call?.thoughtSignature, "string");
  contents.push({ role: "model", parts: [{ functionCall: call!.functionCall }] }, {
    role: "user",
    parts: [{ functionResponse: { id: "call_1", name: "Bash", response: { output: "a.txt" } } }],
  });
  await assert.rejects(
    ai.models.generateContent({ model: "gemini-test", contents, config }),
    (error: Error & { status?: number }) => error.status === 400,
  );
  assert.match(fake.failures[0].problems.join("\n"), /without the thoughtSignature/);
});
