import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { testSettings } from "./_testing.ts";
import { openProvider } from "./mod.ts";
import type { WireApi } from "./types.ts";

Deno.test("openProvider() returns a provider carrying the settings for each wire API", async () => {
  for (const wire of ["chat", "responses", "messages"] satisfies WireApi[]) {
    const settings = testSettings("http://127.0.0.1:1/v1", wire);
    const provider = await openProvider(settings);
    assert.equal(provider.settings, settings);
    assert.equal(typeof provider.stream, "function");
  }
});

Deno.test("openProvider() rejects an unknown wire API with a config error", async () => {
  const settings = testSettings("http://h/v1", "bogus" as WireApi);
  await assert.rejects(openProvider(settings), ConfigError);
});

/** Modules reachable from `root` through static, runtime (non-type, non-dynamic) imports. */
async function staticCodeGraph(root: string): Promise<Set<string>> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(root, import.meta.url).href],
    stdout: "piped",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) visit(dep.code.specifier);
    }
  };
  info.roots.forEach(visit);
  return seen;
}

Deno.test("mod.ts and the adapters import the SDKs only dynamically", async () => {
  for (
    const root of [
      "./mod.ts",
      "./openai_chat.ts",
      "./openai_responses.ts",
      "./anthropic_messages.ts",
    ]
  ) {
    const graph = await staticCodeGraph(root);
    assert.ok(graph.size > 1, root);
    assert.deepEqual([...graph].filter((s) => s.startsWith("npm:")), [], root);
  }
});
