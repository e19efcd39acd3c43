import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { loadConfig } from "./load.ts";

Deno.test("loadConfig() reads [web_search_backend] for SearXNG and Brave", async () => {
  await using t = await tempTree({
    "home/config.toml": '[web_search_backend]\nkind = "searxng"\nurl = "http://127.0.0.1:8888"\n',
  });
  const base = { cwd: t.repo, env: t.env, flags: {} };
  const fromFile = await loadConfig({ ...base, overrides: [] });
  assert.deepEqual(fromFile.values.web_search_backend, {
    kind: "searxng",
    url: "http://127.0.0.1:8888",
  });
  const brave = await loadConfig({
    ...base,
    overrides: ['web_search_backend={kind="brave", api_key_env="MY_KEY", max_results=8}'],
  });
  // -c sets keys of the file's table; the file's url stays.
  assert.deepEqual(brave.values.web_search_backend, {
    kind: "brave",
    url: "http://127.0.0.1:8888",
    api_key_env: "MY_KEY",
    max_results: 8,
  });
});

Deno.test("loadConfig() refuses a SearXNG backend without url, and a bad key variable", async () => {
  const cases: Array<[string, RegExp]> = [
    ['kind = "searxng"', /kind = "searxng" needs url, the instance's address/],
    ['kind = "brave"\napi_key_env = "$BRAVE"', /use the name of an environment variable/],
    ['kind = "bing"', /web_search_backend\.kind/],
  ];
  for (const [table, why] of cases) {
    await using t = await tempTree({ "home/config.toml": `[web_search_backend]\n${table}\n` });
    const err = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] })
      .catch((e) => e);
    assert.ok(err instanceof ConfigError, String(err));
    assert.match(err.message, why);
  }
});
