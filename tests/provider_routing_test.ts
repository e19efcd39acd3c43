/**
 * The routing matrix: for every built-in provider and every wire API it serves (its row's
 * `wireApis`, and Ollama's native `/api/chat`), the provider made from config and the provider's
 * key variable (an env object, never the process's) sends one harness's request to a fake server
 * on the right path, with the right authentication and body shape, and a tool call round-trips:
 * the model calls a tool, and the next request carries the call and its result in that wire's
 * shape. In process, one real socket per case. A provider row without its case here fails.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../lib/config/load.ts";
import { resolveProvider } from "../lib/config/provider.ts";
import { loadHarness } from "../lib/harness/load.ts";
import { freshState } from "../lib/loop/_test_loop.ts";
import { BUILTIN_PROVIDERS, type BuiltinProvider, openProvider } from "../lib/providers/mod.ts";
import { startFakeOllama } from "./fake_ollama/server.ts";
import { type ScriptTurn, startFakeProvider } from "./fake_provider/server.ts";
import { type ProxiedRequest, startRoutingProxy } from "./_routing_proxy.ts";
import { runTestTurn } from "./_run_turn.ts";
import { type Route, toolRoundTrip } from "./_wire_shapes.ts";

type Auth = "bearer" | "x-api-key" | "x-goog-api-key" | "none";

/** One wire of one provider: the full path it must reach, how it authenticates, the harness. */
interface WireCase {
  path: string;
  auth: Auth;
  harness?: "native" | "claude-code";
  /** The body carries no `thinking` (Ollama refuses it for a model without the capability). */
  noThinking?: true;
}

/** One provider: its key variable, and a case for each wire API it serves. */
interface RoutingCase {
  envKey?: string;
  /** The fake behind it: an OpenAI/Anthropic-compatible one, or a fake Ollama. */
  server?: "ollama";
  wires: Partial<Record<Route, WireCase>>;
}

const chat = (prefix: string, auth: Auth): WireCase => ({
  path: `${prefix}/chat/completions`,
  auth,
});

const CASES: Record<string, RoutingCase> = {
  openai: {
    envKey: "OPENAI_API_KEY",
    wires: { responses: { path: "/v1/responses", auth: "bearer" }, chat: chat("/v1", "bearer") },
  },
  anthropic: {
    envKey: "ANTHROPIC_API_KEY",
    wires: {
      messages: { path: "/v1/messages", auth: "x-api-key", harness: "claude-code" },
      chat: chat("/v1", "bearer"),
    },
  },
  gemini: {
    envKey: "GEMINI_API_KEY",
    // The model (MODEL, "qwen3:8b") goes in the path, its colon escaped.
    wires: {
      gemini: { path: "/v1beta/models/qwen3%3A8b:streamGenerateContent", auth: "x-goog-api-key" },
    },
  },
  deepseek: { envKey: "DEEPSEEK_API_KEY", wires: { chat: chat("/v1", "bearer") } },
  moonshot: { envKey: "MOONSHOT_API_KEY", wires: { chat: chat("/v1", "bearer") } },
  zhipu: { envKey: "ZHIPUAI_API_KEY", wires: { chat: chat("/api/paas/v4", "bearer") } },
  dashscope: {
    envKey: "DASHSCOPE_API_KEY",
    wires: { chat: chat("/compatible-mode/v1", "bearer") },
  },
  openrouter: {
    envKey: "OPENROUTER_API_KEY",
    wires: {
      chat: chat("/api/v1", "bearer"),
      responses: { path: "/api/v1/responses", auth: "bearer" },
    },
  },
  ollama: {
    server: "ollama",
    wires: {
      ollama: { path: "/api/chat", auth: "none" },
      chat: chat("/v1", "none"),
      responses: { path: "/v1/responses", auth: "none" },
      messages: { path: "/v1/messages", auth: "none", harness: "claude-code", noThinking: true },
    },
  },
  lmstudio: {
    wires: {
      chat: chat("/v1", "none"),
      responses: { path: "/v1/responses", auth: "none" },
      messages: { path: "/v1/messages", auth: "none", harness: "claude-code" },
    },
  },
  "ollama-cloud": { envKey: "OLLAMA_API_KEY", wires: { chat: chat("/v1", "bearer") } },
  llamacpp: {
    wires: {
      chat: chat("/v1", "none"),
      messages: { path: "/v1/messages", auth: "none", harness: "claude-code" },
    },
  },
  vllm: {
    wires: {
      chat: chat("/v1", "none"),
      responses: { path: "/v1/responses", auth: "none" },
      messages: { path: "/v1/messages", auth: "none" },
    },
  },
};

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const MODEL = "qwen3:8b";
const CALL_ID = "call_route1";

/** The routes a row serves: Ollama's native API first when it has one, then its wire APIs. */
function routesOf(row: BuiltinProvider): Route[] {
  return [...(row.nativeApi ? ["ollama" as const] : []), ...row.wireApis];
}

Deno.test("every built-in provider has a routing case for each wire API it serves", () => {
  for (const row of BUILTIN_PROVIDERS) {
    const known = CASES[row.id];
    assert.ok(
      known,
      `Built-in provider "${row.id}" has no routing case: add one to CASES in ` +
        "tests/provider_routing_test.ts (its key variable and, per wire API, path and auth)",
    );
    assert.deepEqual(
      Object.keys(known.wires).sort(),
      routesOf(row).sort(),
      `The routing case of "${row.id}" must cover exactly the wire APIs its row serves`,
    );
    assert.equal(known.envKey, row.envKey, `key variable of "${row.id}"`);
  }
  assert.deepEqual(
    Object.keys(CASES).filter((id) => !BUILTIN_PROVIDERS.some((row) => row.id === id)),
    [],
  );
});

for (const row of BUILTIN_PROVIDERS) {
  for (const route of routesOf(row)) {
    const wire = CASES[row.id]?.wires[route];
    if (!wire) continue;
    Deno.test(`${row.id} over ${route} reaches ${wire.path} and a tool call round-trips`, () =>
      routeCase(row, route, wire));
  }
}

/** Runs one case; see the module comment. */
async function routeCase(row: BuiltinProvider, route: Route, wire: WireCase): Promise<void> {
  const key = row.envKey ? `sk-route-${row.id}` : undefined;
  const harnessId = wire.harness ?? "native";
  const marker = `routed-${row.id}-${route}`;
  const call = harnessId === "claude-code"
    ? { name: "Bash", args: { command: `echo ${marker}` }, id: CALL_ID }
    : { name: "exec_command", args: { cmd: `echo ${marker}` }, id: CALL_ID };
  const script: ScriptTurn[] = [
    { reply: { tool_calls: [call] } },
    { expect: { last_tool_result_contains: marker }, reply: { text: "routed" } },
  ];
  await using fake = startFake(CASES[row.id].server, script, key);
  await using proxy = startRoutingProxy(fake.origin);
  const settings = await settingsFor(row, route, {
    baseUrl: proxy.origin + new URL(row.baseUrl).pathname,
    env: key ? { [row.envKey!]: key } : {},
  });
  const provider = await openProvider(settings);
  const harness = await loadHarness(harnessId, { builtinDir: HARNESSES });
  const cwd = await Deno.makeTempDir({ prefix: "oi_route_" });
  try {
    const outcome = await runTestTurn({ ...freshState("run the tool"), model: MODEL }, {
      provider,
      harness,
      cwd,
    });
    assert.deepEqual(outcome, { status: "completed", finalText: "routed" });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
  assert.deepEqual(fake.failures(), []);
  checkRequests(proxy.requests, { route, wire, key, call, marker });
}

/** The fake behind the proxy, taking only `key` when there is one; `failures()` of every side. */
function startFake(server: "ollama" | undefined, script: ScriptTurn[], key: string | undefined) {
  if (server === "ollama") {
    const ollama = startFakeOllama({
      models: [{ name: MODEL, capabilities: ["completion", "tools"] }],
      script,
    });
    return {
      origin: ollama.origin,
      failures: () => [...ollama.failures, ...ollama.v1.failures],
      [Symbol.asyncDispose]: () => ollama.close(),
    };
  }
  const fake = startFakeProvider(script, key ? { apiKey: key } : {});
  return {
    origin: fake.origin,
    failures: () => fake.failures,
    [Symbol.asyncDispose]: () => fake.close(),
  };
}

/** Settings as a session would resolve them: config in a fresh home, the key from `env`. */
async function settingsFor(
  row: BuiltinProvider,
  route: Route,
  opts: { baseUrl: string; env: Record<string, string> },
) {
  const home = await Deno.makeTempDir({ prefix: "oi_route_home_" });
  try {
    const env = { OPENINTERPRETER_HOME: home, ...opts.env };
    const overrides = [`model_providers.${row.id}.base_url="${opts.baseUrl}"`];
    if (route !== "ollama") overrides.push(`model_providers.${row.id}.wire_api="${route}"`);
    const config = await loadConfig({
      cwd: home,
      env,
      flags: { model_provider: row.id, model: MODEL },
      overrides,
    });
    return resolveProvider(config, env).settings;
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** The two model requests: path, authentication, body shape and the tool call's round trip. */
function checkRequests(
  requests: ProxiedRequest[],
  c: { route: Route; wire: WireCase; key?: string; call: { name: string }; marker: string },
) {
  const model = requests.filter((r) => r.path === c.wire.path);
  const others = requests.filter((r) => r.path !== c.wire.path).map((r) => r.path);
  assert.equal(model.length, 2, `requests: ${requests.map((r) => r.path).join(", ")}`);
  assert.ok(others.every((p) => p === "/api/show"), `unexpected requests: ${others}`);
  for (const request of model) {
    assert.equal(request.method, "POST");
    checkAuth(request.headers, c.wire.auth, c.key);
    // Gemini names the model in the path only.
    const model = c.route === "gemini" ? undefined : MODEL;
    assert.equal((request.body as { model?: string }).model, model);
  }
  const first = toolRoundTrip(c.route, model[0].body);
  assert.ok(first.tools.includes(c.call.name), `tools sent: ${first.tools}`);
  const second = toolRoundTrip(c.route, model[1].body);
  assert.deepEqual(second.calls, [{ id: CALL_ID, name: c.call.name }]);
  assert.equal(second.results.length, 1);
  assert.equal(second.results[0].id, CALL_ID);
  assert.match(second.results[0].text, new RegExp(c.marker));
  if (c.wire.harness === "claude-code" && c.route === "messages") checkClaudeCode(model, c.wire);
}

/** What Claude Code sends on the Messages wire: its beta header, metadata, thinking if allowed. */
function checkClaudeCode(requests: ProxiedRequest[], wire: WireCase) {
  for (const { headers, body } of requests) {
    assert.match(headers["anthropic-beta"] ?? "", /(^|,)claude-code-20250219(,|$)/);
    const b = body as { metadata?: { user_id?: unknown }; thinking?: unknown; system?: unknown };
    assert.equal(typeof b.metadata?.user_id, "string");
    assert.ok(Array.isArray(b.system));
    assert.equal(b.thinking === undefined, wire.noThinking === true, JSON.stringify(b.thinking));
  }
}

function checkAuth(headers: Record<string, string>, auth: Auth, key: string | undefined) {
  const bearer = headers.authorization;
  const apiKey = headers["x-api-key"];
  if (auth === "bearer") {
    assert.equal(bearer, `Bearer ${key}`);
    assert.equal(apiKey, undefined);
  } else if (auth === "x-goog-api-key") {
    assert.equal(headers["x-goog-api-key"], key);
    assert.equal(bearer, undefined);
    assert.equal(apiKey, undefined);
  } else if (auth === "x-api-key") {
    assert.equal(apiKey, key);
    assert.equal(headers["anthropic-version"], "2023-06-01");
    assert.equal(bearer, undefined);
  } else {
    assert.equal(bearer, undefined);
    assert.equal(apiKey, undefined);
  }
}
