/**
 * Issue 32 group 9: Codex's hosted `web_search` on the Responses wire. It is sent only to
 * providers that run it (the built-in `openai`, or a provider with `compat.hosted_web_search`),
 * switched by the `web_search` key; a `web_search_call` the server streams shows as a
 * `web_search` item in `exec --json`, and the next request is accepted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ExecJsonStream } from "../lib/modes/exec/exec_json.ts";
import { toWire } from "../lib/providers/openai_responses.ts";
import type { ThreadEvent } from "../lib/modes/exec/exec_json_types.ts";
import { openSession } from "../lib/session/open.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";

type Json = Record<string, unknown>;

interface Case {
  /** `openai` (the built-in, its base URL moved to the fake) or a provider of our own. */
  provider: "openai" | "fake";
  /** The fake's `compat` table, as TOML. */
  compat?: string;
  webSearch?: "live" | "cached" | "disabled";
  /** The prompts, one turn each. */
  prompts: string[];
}

/** The config.toml of `c`: the native harness on the Responses wire. */
function configOf(c: Case, baseUrl: string): string {
  const lines = ['model = "gpt-5-codex"', 'harness = "native"'];
  if (c.webSearch) lines.push(`web_search = "${c.webSearch}"`);
  if (c.provider === "openai") {
    lines.push('model_provider = "openai"', `openai_base_url = "${baseUrl}"`);
  } else {
    lines.push('model_provider = "fake"', "[model_providers.fake]", `base_url = "${baseUrl}"`);
    lines.push('wire_api = "responses"', 'env_key = "FAKE_API_KEY"');
    if (c.compat) lines.push(`compat = ${c.compat}`);
  }
  return lines.map((line) => `${line}\n`).join("");
}

/** Runs `c` against `baseUrl`; the `exec --json` events its session's events make. */
async function runCase(c: Case, baseUrl: string): Promise<ThreadEvent[]> {
  await using ws = await requestWorkspace({
    prefix: "oi_hosted_search_",
    files: { "README.md": "# Notes\n" },
    model: "gpt-5-codex",
    baseUrl,
    env: { OPENAI_API_KEY: "k" },
  });
  await Deno.writeTextFile(join(ws.home, "config.toml"), configOf(c, baseUrl));
  const events: ThreadEvent[] = [];
  const json = new ExecJsonStream((event) => events.push(event));
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "read-only", approval: "never" },
    { onEvent: (event) => json.onEvent(event) },
    { env: ws.env },
  );
  for (const prompt of c.prompts) {
    const outcome = await session.prompt(prompt, new AbortController().signal);
    assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  }
  return events;
}

/** The hosted tool entries of a request body's `tools`. */
function hostedTools(body: unknown): Json[] {
  const tools = ((body as Json).tools ?? []) as Json[];
  return tools.filter((t) => t.type === "web_search");
}

Deno.test("the hosted web_search goes to providers that run it, switched by web_search", async () => {
  const cases: Case[] = [
    { provider: "openai", prompts: ["one"] },
    { provider: "openai", webSearch: "live", prompts: ["one"] },
    { provider: "openai", webSearch: "disabled", prompts: ["one"] },
    { provider: "fake", prompts: ["one"] },
    { provider: "fake", compat: "{ hosted_web_search = true }", webSearch: "live", prompts: ["1"] },
  ];
  const script: ScriptTurn[] = cases.map(() => ({ reply: { text: "Done." } }));
  await using fake = startFakeProvider(script);
  const sent: Json[][] = [];
  for (const c of cases) {
    const before = fake.requests.length;
    await runCase(c, fake.baseUrl);
    sent.push(...fake.requests.slice(before).map((r) => hostedTools(r.body)));
  }
  assert.deepEqual(fake.failures, []);
  assert.deepEqual(sent, [
    [{ type: "web_search", external_web_access: false }],
    [{ type: "web_search", external_web_access: true }],
    [],
    [],
    [{ type: "web_search", external_web_access: true }],
  ]);
  const last = fake.requests[0].body as { tools: Json[] };
  assert.equal(last.tools.at(-1)?.type, "web_search", "the hosted tool goes last, as Codex's");
});

Deno.test("a web_search_call the server streams is a web_search item in exec --json", async () => {
  const script: ScriptTurn[] = [
    { reply: { web_searches: ["deno 2.9 release"], text: "Deno 2.9 is out." } },
    { expect: { user_contains: "thanks" }, reply: { text: "You are welcome." } },
  ];
  await using fake = startFakeProvider(script);
  const events = await runCase({ provider: "openai", prompts: ["search", "thanks"] }, fake.baseUrl);
  assert.deepEqual(fake.failures, [], "the request after the search is accepted");
  assert.equal(fake.remaining(), 0);
  const search = events.filter((e) => "item" in e && e.item.type === "web_search");
  const item = {
    type: "web_search",
    query: "deno 2.9 release",
    action: { type: "search", query: "deno 2.9 release" },
  };
  assert.deepEqual(
    search.map((e) => ({ type: e.type, item: { ...(e as { item: Json }).item, id: undefined } })),
    [
      { type: "item.started", item: { ...item, id: undefined } },
      { type: "item.completed", item: { ...item, id: undefined } },
    ],
  );
  const replay = JSON.stringify((fake.requests[1].body as Json).input);
  assert.ok(!replay.includes("web_search_call"), "the server's search is not replayed");
  assert.ok(replay.includes("Deno 2.9 is out."), "the reply's text is");
});

Deno.test("code mode's tools item never carries the hosted web_search", () => {
  const settings = {
    responses: {
      base: { hostedWebSearch: true, toolsItem: "additional_tools" as const },
      rules: [],
    },
  };
  const tool = { name: "exec", description: "Runs code.", parameters: { type: "object" } };
  const request = { model: "gpt-6", system: [], messages: [], tools: [tool], settings };
  const compat = { hostedWebSearch: true };
  assert.equal(JSON.stringify(toWire(request, { compat })).includes('"web_search"'), false);
  const classic = {
    ...request,
    settings: { responses: { base: { hostedWebSearch: true }, rules: [] } },
  };
  assert.deepEqual((toWire(classic, { compat }).tools as Json[]).at(-1), {
    type: "web_search",
    external_web_access: false,
  });
});
