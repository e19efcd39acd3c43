/**
 * The model's questions (Kimi Code's `AskUserQuestion`, then Codex's `request_user_input` under
 * the native harness) through `interpreter mcp-server`, driven by the official MCP SDK client: a
 * client that declares elicitation gets one `elicitation/create` form whose answer reaches the
 * model; for a client without it nobody can answer, so no question tool is sent.
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

/** Every option of a multi-select field, the last option of a single pick. */
function lastPicks(schema: unknown): Params {
  const fields = (schema as { properties: Record<string, { enum?: string[]; items?: Params }> })
    .properties;
  return Object.fromEntries(
    Object.entries(fields).map(([id, f]) => [id, f.items ? f.items.enum : f.enum?.at(-1)]),
  );
}

const CODEX_ASK = {
  questions: [{
    id: "database",
    header: "DB",
    question: "Which database?",
    options: [{ label: "postgres", description: "a server" }, {
      label: "sqlite",
      description: "a file",
    }],
  }],
};

/**
 * An SDK client of a fresh `interpreter mcp-server`, declaring elicitation or not; each call names
 * its harness (Kimi Code unless told).
 */
async function connect(env: { cwd: string; home: string }, elicitation: boolean) {
  const transport = new StdioClientTransport({
    command: LAUNCHER,
    args: ["mcp-server"],
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
      return { action: "accept", content: lastPicks(request.params.requestedSchema) };
    });
  }
  await client.connect(transport);
  return {
    asked,
    call: async (prompt: string, config: Params = { harness: "kimi-code" }) =>
      await client.callTool({ name: "codex", arguments: { prompt, config } }) as ToolResult,
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
    {
      expect: { tools_include: ["request_user_input"] },
      reply: { tool_calls: [{ name: "request_user_input", args: CODEX_ASK }] },
    },
    {
      expect: { last_tool_result_contains: '{"answers":{"database":{"answers":["sqlite"]}}}' },
      reply: { text: "Codex: sqlite." },
    },
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

  const codex = await client.call("and in Codex terms", { harness: "native" });
  assert.equal(codex.content[0].text, "Codex: sqlite.", codex.content[0]?.text);
  assert.equal(client.asked.length, 2);
  assert.deepEqual(model.failures, []);
});

Deno.test("mcp-server sends no question tool when the client has no elicitation", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using model = startFakeProvider([
    { reply: { text: "I will assume sqlite." } },
    { reply: { text: "Still sqlite." } },
  ]);
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  await using client = await connect({ cwd: repo, home }, false);

  assert.equal((await client.call("set up storage")).content[0].text, "I will assume sqlite.");
  const native = await client.call("set up storage", { harness: "native" });
  assert.equal(native.content[0].text, "Still sqlite.");
  const sent = model.requests.map((r) =>
    (r.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name)
  );
  assert.ok(sent[0].includes("Bash") && sent[1].includes("exec_command"), JSON.stringify(sent));
  assert.deepEqual(sent.flat().filter((n) => /AskUserQuestion|request_user_input/.test(n)), []);
  assert.deepEqual(model.failures, []);
});
