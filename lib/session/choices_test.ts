import assert from "node:assert/strict";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { startFakeOllama } from "../../tests/fake_ollama/server.ts";
import { startFakeLlamaCpp } from "../../tests/fake_local/llamacpp.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { runCommand } from "../modes/repl/commands.ts";
import { makeStyle } from "../modes/term/style.ts";
import { openSession, type Session, type SessionEvent } from "./open.ts";

const signal = () => new AbortController().signal;

async function open(
  ws: Awaited<ReturnType<typeof sessionWorkspace>>,
  env: Record<string, string> = {},
  events: SessionEvent[] = [],
) {
  return await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
    { onEvent: (event) => events.push(event) },
    { env: { ...ws.env, ...env } },
  );
}

/** What a REPL command prints, run against `session`. */
async function command(session: Session, line: string): Promise<string> {
  const lines: string[] = [];
  await runCommand(line, {
    session: () => session,
    print: (printed) => lines.push(...printed),
    style: makeStyle(false),
    page: (text) => Promise.resolve(void lines.push(text)),
    interruptible: (task) => task(signal()),
    newSession: () => Promise.resolve(),
    resumeSession: () => Promise.resolve(),
    continueSession: () => Promise.resolve(),
    ask: () => Promise.resolve(null),
    reviewBase: () => {
      throw new Error("not used");
    },
    runTurn: () => Promise.reject(new Error("not used")),
  });
  return lines.join("\n");
}

Deno.test("a model the catalog knows sets the window, with no note", async () => {
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await open(ws);
  await session.switchModel("kimi-k2-0905-preview");
  assert.equal(session.status().contextWindow, 262144);
  assert.equal(session.status().contextNote, undefined);
  assert.match(await command(session, "/status"), /^context: +\d+ \/ 262144 tokens \(\d+%\)$/m);
});

Deno.test("claude-code-bare's 32000 output tokens are capped at deepseek-chat's 8192", async () => {
  await using fake = startFakeProvider([{ reply: { text: "hi" } }]);
  await using ws = await sessionWorkspace(fake.baseUrl, 'harness = "claude-code-bare"');
  await using session = await open(ws);
  await session.switchModel("deepseek-chat");
  await session.prompt("hello", signal());
  assert.deepEqual(fake.failures, []);
  assert.equal((fake.requests[0].body as { max_tokens: number }).max_tokens, 8192);
});

Deno.test("an unknown model works with a one-line note that its window is a guess", async () => {
  await using fake = startFakeProvider([{ reply: { text: "hi" } }]);
  await using ws = await sessionWorkspace(fake.baseUrl, 'harness = "claude-code-bare"');
  const events: SessionEvent[] = [];
  await using session = await open(ws, {}, events);
  const note = session.status().contextNote;
  assert.match(
    note ?? "",
    /^note: fake-model is not in the model catalog, so its context window of 128000 tokens is a guess; set model_context_window to the real one$/,
  );
  assert.equal(session.status().contextWindow, 128000);
  await session.prompt("hello", signal());
  assert.equal((fake.requests[0].body as { max_tokens: number }).max_tokens, 32000, "no cap");
  await session.switchModel("deepseek-chat");
  await session.switchModel("another-unknown");
  const switched = events.filter((e) => e.type === "model_switched");
  assert.deepEqual(
    switched.map((e) => e.type === "model_switched" && e.contextNote !== undefined),
    [
      false,
      true,
    ],
  );
});

Deno.test("model_context_window wins over the catalog and leaves no note", async () => {
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl, "model_context_window = 50000");
  await using session = await open(ws);
  assert.equal(session.status().contextWindow, 50000);
  assert.equal(session.status().contextNote, undefined);
  assert.match(await command(session, "/status"), /^context: +\d+ \/ 50000 tokens \(\d+%\)$/m);
});

Deno.test("/model lists the catalog's models of providers with a key, and /model P/ all of them", async () => {
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await open(ws, { DEEPSEEK_API_KEY: "k" });
  const listed = await command(session, "/model");
  assert.match(listed, /^ {2}\* fake +fake-model +Fake$/m);
  assert.match(listed, /^ {4}deepseek +deepseek-chat +DeepSeek$/m);
  assert.match(
    listed,
    /^ {8}deepseek-chat +DeepSeek Chat · 128k context · 8k output · \$0\.57\/\$1\.68 per 1M$/m,
  );
  assert.match(listed, /^ {8}deepseek-reasoner +DeepSeek Reasoner · .*reasoning/m);
  assert.match(
    listed,
    /^ {4}moonshot +kimi-k2-thinking +Moonshot AI · no key set \(MOONSHOT_API_KEY\)$/m,
  );
  assert.doesNotMatch(listed, /kimi-k2-0905/, "no models for a provider without its key");
  const openrouter = await open(ws, { OPENROUTER_API_KEY: "k" });
  try {
    const short = await command(openrouter, "/model");
    assert.match(short, /^ {8}… \d+ more: \/model openrouter\/$/m);
    const all = await command(openrouter, "/model openrouter/");
    const rows = all.split("\n").filter((l) => /^ {6}[ *] \S/.test(l));
    assert.ok(rows.length > 50, `${rows.length} openrouter models`);
    assert.doesNotMatch(all, /^ {4}deepseek /m, "only the provider asked for");
  } finally {
    await openrouter[Symbol.asyncDispose]();
  }
  await assert.rejects(() => command(session, "/model nosuch/"), /Unknown provider "nosuch"/);
});

Deno.test("/model lists the models a running Ollama has installed", async () => {
  await using ollama = startFakeOllama({
    models: [{ name: "qwen3-coder:30b" }, { name: "llama3.2:3b" }],
  });
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await open(ws, { OLLAMA_HOST: ollama.origin });
  const listed = await command(session, "/model");
  assert.match(listed, /^ {8}qwen3-coder:30b +qwen3-coder:30b$/m);
  assert.match(listed, /^ {8}llama3\.2:3b +llama3\.2:3b$/m);
  await ollama.close();
  const down = await command(session, "/model ollama/");
  assert.match(down, /^ {6}cannot list the server's models: /m);
});

Deno.test("/model lists what a running llama.cpp server serves, with its window", async () => {
  await using llama = startFakeLlamaCpp({ models: ["qwen3-coder-30b.gguf"], nCtx: 32_768 });
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await open(ws, { OPENINTERPRETER_OSS_BASE_URL: llama.baseUrl });
  const listed = await command(session, "/model llamacpp/");
  assert.match(listed, /^ {8}qwen3-coder-30b\.gguf +qwen3-coder-30b\.gguf · 33k context$/m);
});

Deno.test("/status counts the tool calls recovered from text, or says repair is off", async () => {
  const hermes = '<tool_call>{"name": "exec_command", "arguments": {"cmd": "true"}}</tool_call>';
  await using fake = startFakeProvider([
    { reply: { text: hermes } },
    { reply: { text: "done" } },
  ], { allowForeignIds: true });
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await open(ws);
  assert.match(await command(session, "/status"), /^repairs: +0 tool calls recovered from text$/m);
  await session.prompt("go", signal());
  assert.deepEqual(fake.failures, []);
  assert.equal(session.status().toolCallRepairs, 1);
  assert.match(await command(session, "/status"), /^repairs: +1 tool call recovered from text$/m);
  await using off = await sessionWorkspace(fake.baseUrl, "tool_call_repair = false");
  await using offSession = await open(off);
  assert.match(
    await command(offSession, "/status"),
    /^repairs: +off \(tool_call_repair = false\)$/m,
  );
});
