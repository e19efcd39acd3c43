/**
 * The model's questions (Kimi Code's `AskUserQuestion`) through `interpreter acp`, driven by the
 * official ACP SDK's client: a client without elicitation gets a permission request per question
 * whose options are the question's (a pick reaches the model; "Skip" dismisses); a client that
 * declares form elicitation gets one `elicitation/create` form whose answers reach the model,
 * for Codex's `request_user_input` too (native harness, Codex's JSON of answers by id).
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER, tempDirs } from "./_harness_env.ts";

const ASK = {
  questions: [{
    question: "Which database?",
    header: "DB",
    options: [{ label: "postgres", description: "a server" }, { label: "sqlite" }],
  }],
};

interface Answers {
  permission(req: acp.RequestPermissionRequest): string;
  form?(req: acp.CreateElicitationRequest): acp.CreateElicitationResponse;
}

/** One `interpreter acp` process and the SDK client connected to it, answering with `answers`. */
function startAgent(env: { cwd: string; home: string }, answers: Answers) {
  const child = new Deno.Command(LAUNCHER, {
    args: ["acp", "--harness", "kimi-code"],
    cwd: env.cwd,
    env: { OPENINTERPRETER_HOME: env.home, FAKE_API_KEY: "test-key", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const asked: acp.RequestPermissionRequest[] = [];
  const forms: acp.CreateElicitationRequest[] = [];
  let builder = acp.client({ name: "acp-ask-test" })
    .onNotification(acp.methods.client.session.update, () => {})
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      asked.push(params);
      return { outcome: { outcome: "selected", optionId: answers.permission(params) } };
    });
  if (answers.form) {
    const form = answers.form;
    builder = builder.onRequest(acp.methods.client.elicitation.create, ({ params }) => {
      forms.push(params);
      return form(params);
    });
  }
  const connection = builder.connect(acp.ndJsonStream(child.stdin, child.stdout));
  return {
    agent: connection.agent,
    asked,
    forms,
    async [Symbol.asyncDispose]() {
      connection.close();
      await child.stdin.close().catch(() => {});
      await child.status;
    },
  };
}

async function openSession(
  a: ReturnType<typeof startAgent>,
  cwd: string,
  elicitation: boolean,
): Promise<string> {
  await a.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      ...(elicitation ? { elicitation: { form: {} } } : {}),
    },
  });
  const { sessionId } = await a.agent.request(acp.methods.agent.session.new, {
    cwd,
    mcpServers: [],
  });
  return sessionId;
}

function prompt(a: ReturnType<typeof startAgent>, sessionId: string, text: string) {
  return a.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
}

Deno.test("acp asks the model's questions as permission requests with their options", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using model = startFakeProvider([
    {
      reply: { tool_calls: [{ name: "AskUserQuestion", args: ASK }] },
    },
    { expect: { last_tool_result_contains: "sqlite" }, reply: { text: "Using sqlite." } },
    {
      reply: { tool_calls: [{ name: "AskUserQuestion", args: ASK }] },
    },
    { expect: { last_tool_result_contains: "declined" }, reply: { text: "Going on." } },
  ], { allowTranslatedCalls: true });
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  let pick = "o1";
  await using a = startAgent({ cwd: repo, home }, { permission: () => pick });
  const sessionId = await openSession(a, repo, false);

  assert.equal((await prompt(a, sessionId, "set up storage")).stopReason, "end_turn");
  assert.equal(a.asked.length, 1);
  const [req] = a.asked;
  assert.deepEqual(req.options.map((o) => [o.optionId, o.name]), [
    ["o0", "postgres"],
    ["o1", "sqlite"],
    ["skip", "Skip"],
  ]);
  assert.match(JSON.stringify(req.toolCall.content), /Which database\?.*postgres: a server/);

  // The control: "Skip" dismisses the questions, so the model reads that no answer came.
  pick = "skip";
  assert.equal((await prompt(a, sessionId, "ask again")).stopReason, "end_turn");
  assert.equal(a.asked.length, 2);
  assert.deepEqual(model.failures, []);
});

const CODEX_ASK = {
  questions: [{
    id: "cache",
    header: "Cache",
    question: "Which cache?",
    options: [{ label: "redis", description: "a server" }, { label: "none", description: "" }],
  }],
};

Deno.test("acp asks the model's questions as one elicitation form when the client has forms", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using model = startFakeProvider([
    { reply: { tool_calls: [{ name: "AskUserQuestion", args: ASK }] } },
    { expect: { last_tool_result_contains: "postgres" }, reply: { text: "Using postgres." } },
    {
      expect: { tools_include: ["request_user_input"] },
      reply: { tool_calls: [{ name: "request_user_input", args: CODEX_ASK }] },
    },
    {
      expect: { last_tool_result_contains: '{"answers":{"cache":{"answers":["redis"]}}}' },
      reply: { text: "Using redis." },
    },
  ], { allowTranslatedCalls: true });
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  await using a = startAgent({ cwd: repo, home }, {
    permission: () => "skip",
    form: (req) => ({
      action: "accept",
      content: "q1" in (req as { requestedSchema: { properties: object } }).requestedSchema
          .properties
        ? { q1: "postgres" }
        : { cache: "redis" },
    }),
  });
  const sessionId = await openSession(a, repo, true);

  assert.equal((await prompt(a, sessionId, "set up storage")).stopReason, "end_turn");
  assert.equal(a.asked.length, 0, "no permission request when the client has forms");
  assert.equal(a.forms.length, 1);
  const form = a.forms[0] as acp.CreateElicitationRequest & {
    mode: "form";
    sessionId: string;
    requestedSchema: { properties: Record<string, { enum?: string[] }> };
  };
  assert.equal(form.mode, "form");
  assert.equal(form.sessionId, sessionId);
  assert.equal(form.message, "Which database?");
  assert.deepEqual(form.requestedSchema.properties.q1.enum, ["postgres", "sqlite"]);

  // Codex's request_user_input, under the native harness in the same session.
  await a.agent.request(acp.methods.agent.session.setConfigOption, {
    sessionId,
    configId: "harness",
    value: "native",
  });
  assert.equal((await prompt(a, sessionId, "and a cache")).stopReason, "end_turn");
  assert.equal(a.forms.length, 2);
  assert.equal(a.forms[1].message, "Which cache?");
  assert.deepEqual(model.failures, []);
});

Deno.test("acp dismisses the model's questions when the client answers the form with an error", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using model = startFakeProvider([
    { reply: { tool_calls: [{ name: "AskUserQuestion", args: ASK }] } },
    { expect: { last_tool_result_contains: "declined" }, reply: { text: "Going on." } },
  ], { allowTranslatedCalls: true });
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  await using a = startAgent({ cwd: repo, home }, {
    permission: () => "skip",
    form: () => {
      throw new Error("the form broke");
    },
  });
  const sessionId = await openSession(a, repo, true);
  assert.equal((await prompt(a, sessionId, "set up storage")).stopReason, "end_turn");
  assert.equal(a.forms.length, 1);
  assert.deepEqual(model.failures, []);
});
