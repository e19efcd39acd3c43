/**
 * The model's questions (Kimi Code's `AskUserQuestion`) through `interpreter mcp-server`, driven
 * by the official MCP SDK client: a client that declares elicitation gets one
 * `elicitation/create` form whose answer reaches the model; a client without it is never asked,
 * and the model reads that no one can answer.
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as z from "zod";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER, tempDirs } from "./_harness_env.ts";

type Params = Record<string, unknown>;
type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

const elicitSchema = z.object({
  method: z.literal("elicitation/create"),
  params: z.looseObject({}),
});

const ASK = {
  questions: [
    {
      question: "Which database?",
      header: "DB",
      options: [{ label: "postgres" }, { label: "sqlite" }],
    },
    {
      question: "Which features?",
      options: [{ label: "auth" }, { label: "logs" }],
      multi_select: true,
    },
  ],
};

/** An SDK client of a fresh `interpreter mcp-server`, declaring elicitation or not. */
async function connect(env: { cwd: string; home: string }, elicitation: boolean) {
  const transport = new StdioClientTransport({
    command: LAUNCHER,
    args: ["mcp-server", "--harness", "kimi-code"],
    cwd: env.cwd,
    env: { OPENINTERPRETER_HOME: env.home, FAKE_API_KEY: "test-key", NO_COLOR: "1" },
    stderr: "ignore",
  });
  const client = new Client({ name: "mcp-ask-test", version: "1.0.0" }, {
    capabilities: elicitation ? { elicitation: {} } : {},
  });
  const asked: Params[] = [];
  if (elicitation) {
    client.setRequestHandler(elicitSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { q1: "sqlite", q2: ["auth", "logs"] } };
    });
  }
  await client.connect(transport);
  return {
    asked,
    call: async (prompt: string) =>
      await client.callTool({ name: "codex", arguments: { prompt } }) as ToolResult,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

Deno.test("mcp-server asks the model's questions by elicitation when the client has it", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using model = startFakeProvider([
    { reply: { tool_calls: [{ name: "AskUserQuestion", args: ASK }] } },
    { expect: { last_tool_result_contains: "sqlite" }, reply: { text: "Using sqlite." } },
  ], { allowTranslatedCalls: true });
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  await using client = await connect({ cwd: repo, home }, true);

  const result = await client.call("set up storage");
  assert.equal(result.isError, undefined, result.content[0]?.text);
  assert.equal(result.content[0].text, "Using sqlite.");
  assert.equal(client.asked.length, 1);
  const schema = client.asked[0].requestedSchema as { properties: Record<string, Params> };
  assert.deepEqual(schema.properties.q1.enum, ["postgres", "sqlite"]);
  assert.deepEqual(schema.properties.q2.items, { type: "string", enum: ["auth", "logs"] });
  const answer = JSON.stringify(model.requests.at(-1)!.body);
  assert.match(answer, /auth.*logs/);
  assert.deepEqual(model.failures, []);
});

Deno.test("mcp-server tells the model no one can answer when the client has no elicitation", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using model = startFakeProvider([
    { reply: { tool_calls: [{ name: "AskUserQuestion", args: ASK }] } },
    {
      expect: { last_tool_result_contains: "No one is available" },
      reply: { text: "I will assume sqlite." },
    },
  ], { allowTranslatedCalls: true });
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  await using client = await connect({ cwd: repo, home }, false);

  const result = await client.call("set up storage");
  assert.equal(result.content[0].text, "I will assume sqlite.");
  assert.deepEqual(model.failures, []);
});
