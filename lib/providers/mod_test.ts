import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { collect, serveReplies, simpleRequest, testSettings } from "./_testing.ts";
import { openProvider } from "./mod.ts";
import type { WireApi } from "./types.ts";

/** Each route and the requests its adapter sends: the adapter is known by where it talks. */
const ROUTES: Array<{
  adapter: string;
  id?: string;
  wire: WireApi;
  nativeApi?: "ollama";
  paths: string[];
}> = [
  { adapter: "the Chat Completions adapter", wire: "chat", paths: ["/v1/chat/completions"] },
  { adapter: "the Responses adapter", wire: "responses", paths: ["/v1/responses"] },
  { adapter: "the Anthropic Messages adapter", wire: "messages", paths: ["/v1/messages"] },
  // Ollama's adapters ask /api/show first whether the model takes tools and thinks.
  {
    adapter: "Ollama's Messages adapter",
    id: "ollama",
    wire: "messages",
    paths: ["/api/show", "/v1/messages"],
  },
  {
    adapter: "Ollama's native API adapter",
    wire: "chat",
    nativeApi: "ollama",
    paths: ["/api/show", "/api/chat"],
  },
];

for (const route of ROUTES) {
  const native = route.nativeApi ? " with native_api" : "";
  const who = `${route.id ?? "a provider"} on ${route.wire}${native}`;
  Deno.test(`openProvider() picks ${route.adapter} for ${who}`, async () => {
    // /api/show says the model takes tools; the model request is refused, so the adapter stops.
    const show = { body: '{"capabilities":["completion","tools"]}' };
    const refused = { status: 400, body: '{"error":{"message":"refused"}}' };
    const ollama = route.paths[0] === "/api/show";
    await using server = serveReplies(ollama ? [show, refused] : [refused]);
    const settings = testSettings(server.baseUrl, route.wire, {
      ...(route.id ? { id: route.id } : {}),
      ...(route.nativeApi ? { nativeApi: route.nativeApi } : {}),
    });
    const provider = await openProvider(settings);
    assert.equal(provider.settings, settings);
    const events = await collect(provider.stream(simpleRequest(), AbortSignal.timeout(10_000)));
    assert.equal(events.at(-1)?.type, "error");
    assert.deepEqual(server.requests.map((r) => r.path), route.paths);
  });
}

Deno.test("openProvider() rejects an unknown wire API with a config error", async () => {
  const settings = testSettings("http://h/v1", "bogus" as WireApi);
  await assert.rejects(openProvider(settings), ConfigError);
});

/**
 * Specifiers reachable from `root` through runtime imports, and also through type-only and
 * dynamic imports when `all` is set.
 */
async function importGraph(root: string, opts: { all: boolean }): Promise<Set<string>> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(root, import.meta.url).href],
    stdout: "piped",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: {
        code?: { specifier: string };
        type?: { specifier: string };
        isDynamic?: boolean;
      }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code && (opts.all || !dep.isDynamic)) visit(dep.code.specifier);
      if (dep.type && opts.all) visit(dep.type.specifier);
    }
  };
  info.roots.forEach(visit);
  return seen;
}

/** The npm packages among `specifiers`, by name. */
function npmPackages(specifiers: Set<string>): string[] {
  const names = [...specifiers].filter((s) => s.startsWith("npm:"))
    .map((s) => s.replace(/^npm:\/?/, "").replace(/(.)@.*$/, "$1"));
  return [...new Set(names)].sort();
}

const PROVIDER_MODULES = [...Deno.readDirSync(new URL(".", import.meta.url))]
  .map((entry) => entry.name)
  .filter((name) => name.endsWith(".ts") && !name.endsWith("_test.ts") && name !== "_testing.ts")
  .sort();

Deno.test("mod.ts loads no npm package before a provider is opened", async () => {
  const graph = await importGraph("./mod.ts", { all: false });
  assert.ok(graph.size > 1);
  assert.deepEqual(npmPackages(graph), []);
});

Deno.test("no provider module imports a vendor SDK, even for types or dynamically", async () => {
  assert.ok(PROVIDER_MODULES.includes("openai_chat.ts"));
  for (const name of PROVIDER_MODULES) {
    const graph = await importGraph(`./${name}`, { all: true });
    const sdks = npmPackages(graph).filter((p) => p === "openai" || p === "@anthropic-ai/sdk");
    assert.deepEqual(sdks, [], name);
  }
});

Deno.test("the adapters load eventsource-parser and no other npm package", async () => {
  for (const name of ["openai_chat.ts", "openai_responses.ts", "anthropic_messages.ts"]) {
    const graph = await importGraph(`./${name}`, { all: false });
    assert.deepEqual(npmPackages(graph), ["eventsource-parser"], name);
  }
});
