/** The fake provider's `routes` option: conversations served statelessly by model and tools. */
import assert from "node:assert/strict";
import OpenAI from "openai";
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { FakeRoute } from "./routes.ts";
import { startFakeProvider } from "./server.ts";

function openai(baseURL: string) {
  return new OpenAI({ apiKey: "test-key", baseURL, maxRetries: 0 });
}

function tool(name: string): ChatCompletionTool {
  return {
    type: "function",
    function: {
      name,
      description: `The ${name} tool`,
      parameters: { type: "object", properties: { command: { type: "string" } } },
    },
  };
}

function argsOf(message: OpenAI.ChatCompletionMessage): string | undefined {
  const call = message.tool_calls?.[0];
  return call?.type === "function" ? call.function.arguments : undefined;
}

/** A route whose model runs `command` with `toolName`, then answers `answer`. */
function route(model: string, toolName: string, command: string, answer: string): FakeRoute {
  return {
    model,
    tools_include: [toolName],
    script: [
      { reply: { tool_calls: [{ name: toolName, args: { command } }] } },
      { expect: { last_tool_result_contains: command }, reply: { text: answer } },
    ],
  };
}

/** One conversation: its messages so far and the tools it advertises. */
class Conversation {
  readonly messages: ChatCompletionMessageParam[];
  constructor(
    readonly client: OpenAI,
    readonly model: string,
    readonly tools: ChatCompletionTool[],
    prompt: string,
  ) {
    this.messages = [{ role: "system", content: "Be terse." }, { role: "user", content: prompt }];
  }

  /** Sends the conversation, appends the reply, and answers each tool call with `ran <args>`. */
  async step(): Promise<OpenAI.ChatCompletionMessage> {
    const completion = await this.client.chat.completions.create({
      model: this.model,
      messages: this.messages,
      tools: this.tools,
    });
    const message = completion.choices[0].message;
    this.messages.push(message);
    for (const call of message.tool_calls ?? []) {
      if (call.type !== "function") continue;
      const content = `ran ${JSON.parse(call.function.arguments).command}`;
      this.messages.push({ role: "tool", tool_call_id: call.id, content });
    }
    return message;
  }
}

Deno.test("startFakeProvider() routes interleaved conversations to their own scripts", async () => {
  await using fake = startFakeProvider([], {
    routes: [
      route("alpha", "bash", "ls alpha", "Alpha is done."),
      route("beta", "bash", "ls beta", "Beta is done."),
    ],
  });
  const client = openai(fake.baseUrl);
  const a = new Conversation(client, "alpha", [tool("bash")], "list alpha");
  const b = new Conversation(client, "beta", [tool("bash")], "list beta");
  const a2 = new Conversation(client, "alpha", [tool("bash")], "list alpha again");

  const [first, second] = await Promise.all([a.step(), b.step()]);
  const third = await a2.step();
  assert.equal(argsOf(first), '{"command":"ls alpha"}');
  assert.equal(argsOf(second), '{"command":"ls beta"}');
  const ids = [first, second, third].map((message) => message.tool_calls?.[0].id);
  assert.equal(new Set(ids).size, 3, `call ids must stay unique across conversations: ${ids}`);

  assert.equal(fake.remaining(), 2, "both routes' second turns are still unreached");
  assert.equal((await b.step()).content, "Beta is done.");
  assert.equal((await a.step()).content, "Alpha is done.");
  assert.equal((await a2.step()).content, "Alpha is done.");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
  const served = fake.requests.map((r) => `${r.route}:${r.turn}`);
  assert.deepEqual(served.slice(0, 2).sort(), ["0:0", "1:0"], "the first two ran in parallel");
  assert.deepEqual(served.slice(2), ["0:0", "1:1", "0:1", "0:1"]);

  const listed = await client.models.list();
  assert.deepEqual(listed.data.map((m) => m.id), ["alpha", "beta"]);
});

Deno.test("startFakeProvider() picks among a model's routes by the tools advertised", async () => {
  await using fake = startFakeProvider([], {
    routes: [
      route("m", "exec_command", "echo native", "Native."),
      route("m", "bash", "echo minimal", "Minimal."),
    ],
  });
  const client = openai(fake.baseUrl);
  const minimal = new Conversation(client, "m", [tool("bash")], "go");
  const native = new Conversation(client, "m", [tool("exec_command"), tool("bash")], "go");
  await Promise.all([minimal.step(), native.step()]);
  assert.equal((await minimal.step()).content, "Minimal.");
  assert.equal((await native.step()).content, "Native.");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() answers a model no route serves with a 400 naming it", async () => {
  await using fake = startFakeProvider([], {
    routes: [route("alpha", "bash", "ls", "Done.")],
  });
  const client = openai(fake.baseUrl);
  const stranger = new Conversation(client, "gamma", [tool("Bash")], "hi");
  await assert.rejects(
    stranger.step(),
    (error: { status?: number; message: string }) =>
      error.status === 400 &&
      /No route for model "gamma" with tools \["Bash"\]/.test(error.message),
  );
  const wrongTools = new Conversation(client, "alpha", [tool("Bash")], "hi");
  await assert.rejects(wrongTools.step(), (error: { status?: number }) => error.status === 400);
  assert.equal(fake.failures.length, 2);
  assert.match(fake.failures[0].problems.join("\n"), /routes: "alpha" \[bash\]/);
  assert.equal(fake.requests[0].turn, null);
  assert.equal(fake.remaining(), 2);
});

Deno.test("startFakeProvider() answers a conversation past its route's script with a 500", async () => {
  await using fake = startFakeProvider([], {
    routes: [{ model: "m", script: [{ reply: { text: "Only this." } }] }],
  });
  const client = openai(fake.baseUrl);
  const chat = new Conversation(client, "m", [], "hi");
  assert.equal((await chat.step()).content, "Only this.");
  chat.messages.push({ role: "user", content: "and then?" });
  await assert.rejects(chat.step(), (error: { status?: number }) => error.status === 500);
  assert.match(fake.failures[0].problems.join("\n"), /route 1 \(model "m"\) is exhausted/);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() counts the turns behind a previous_response_id", async () => {
  await using fake = startFakeProvider([], {
    routes: [{
      model: "m",
      script: [
        { reply: { tool_calls: [{ name: "bash", args: { command: "ls" } }] } },
        { expect: { last_tool_result_contains: "a.txt" }, reply: { text: "One file." } },
      ],
    }],
  });
  const client = openai(fake.baseUrl);
  const first = await client.responses.create({ model: "m", input: "list" });
  const call = first.output.find((item) => item.type === "function_call");
  assert.ok(call?.type === "function_call");
  const second = await client.responses.create({
    model: "m",
    previous_response_id: first.id,
    input: [{ type: "function_call_output", call_id: call.call_id, output: "a.txt" }],
  });
  assert.equal(second.output_text, "One file.");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() refuses a script and routes together", () => {
  assert.throws(
    () => startFakeProvider([{ reply: { text: "x" } }], { routes: [] }),
    /both a script and routes/,
  );
  assert.throws(
    () => startFakeProvider([], { routes: [{ model: "m", script: [{ expect: {} }] }] }),
    /route 1 \(m\) turn 1/,
  );
});
