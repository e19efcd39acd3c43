import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import {
  authFile,
  MissingKeyError,
  readAuthSections,
  readStoredKeys,
  removeAuthFile,
  removeStoredKey,
  removeStoredKeys,
  storeKey,
  writeAuthSection,
} from "./auth.ts";
import { loadConfig } from "./load.ts";
import { resolveProvider } from "./provider.ts";

const DEEPSEEK = 'model_provider = "deepseek"\n';

Deno.test("storeKey() writes auth.json 0600 in a 0700 home and keeps the other providers' keys", async () => {
  await using t = await tempTree();
  const home = join(t.home, "fresh");
  await storeKey(home, "deepseek", " sk-one \n");
  await storeKey(home, "openai", "sk-two");
  assert.equal((await Deno.stat(home)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(authFile(home))).mode! & 0o777, 0o600);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(authFile(home))), {
    providers: { deepseek: { api_key: "sk-one" }, openai: { api_key: "sk-two" } },
  });
  assert.deepEqual(readStoredKeys(home), { deepseek: "sk-one", openai: "sk-two" });
  assert.deepEqual((await Array.fromAsync(Deno.readDir(home))).map((e) => e.name), ["auth.json"]);
});

Deno.test("resolveProvider() takes the stored key, and the environment variable over it", async () => {
  await using t = await tempTree({ "home/config.toml": DEEPSEEK });
  await storeKey(t.home, "deepseek", "stored");
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.equal(resolveProvider(config, {}).settings.apiKey, "stored");
  assert.equal(resolveProvider(config, { DEEPSEEK_API_KEY: "" }).settings.apiKey, "stored");
  assert.equal(resolveProvider(config, { DEEPSEEK_API_KEY: "env" }).settings.apiKey, "env");
});

Deno.test("resolveProvider() without either key throws MissingKeyError, exit 2, with the provider", async () => {
  await using t = await tempTree({ "home/config.toml": DEEPSEEK });
  await storeKey(t.home, "openai", "not this one");
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.throws(() => resolveProvider(config, {}), (error: unknown) => {
    assert.ok(error instanceof MissingKeyError);
    assert.equal(error.exitCode, 2);
    assert.match(error.message, /"deepseek": environment variable "DEEPSEEK_API_KEY" is not set$/);
    assert.match(error.hint!, /Set DEEPSEEK_API_KEY .*run interpreter and enter the key/);
    assert.equal(error.settings.baseUrl, "https://api.deepseek.com/v1");
    assert.equal(error.settings.apiKey, undefined);
    return true;
  });
});

Deno.test("a malformed auth.json is an error naming the file and the fix", async () => {
  await using t = await tempTree();
  const file = authFile(t.home);
  const cases: Array<[string, RegExp]> = [
    ["{not json", /it is not valid JSON/],
    ["[]", /expected a JSON object/],
    ['{"providers": []}', /"providers" must be an object/],
    ['{"providers": {"my vllm": {"api_key": 7}}}', /"providers\."my vllm"\.api_key" must be/],
  ];
  for (const [text, reason] of cases) {
    await Deno.writeTextFile(file, text);
    assert.throws(() => readStoredKeys(t.home), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.exitCode, 2);
      assert.ok(error.message.startsWith(`Cannot read "${file}": `), error.message);
      assert.match(error.message, reason);
      assert.match(error.hint!, /"interpreter logout"/);
      return true;
    });
    await assert.rejects(() => storeKey(t.home, "openai", "k"), ConfigError);
    assert.equal(await Deno.readTextFile(file), text, "a failed store leaves the file as it was");
  }
});

Deno.test("removeStoredKey() removes one provider's key, and the file with the last one", async () => {
  await using t = await tempTree();
  await storeKey(t.home, "deepseek", "a");
  await storeKey(t.home, "openai", "b");
  assert.equal(await removeStoredKey(t.home, "nobody"), false);
  assert.equal(await removeStoredKey(t.home, "deepseek"), true);
  assert.deepEqual(readStoredKeys(t.home), { openai: "b" });
  assert.equal((await Deno.stat(authFile(t.home))).mode! & 0o777, 0o600);
  assert.equal(await removeStoredKey(t.home, "openai"), true);
  await assert.rejects(() => Deno.stat(authFile(t.home)), Deno.errors.NotFound);
  assert.equal(await removeAuthFile(t.home), false);
  await Deno.writeTextFile(authFile(t.home), "{broken");
  assert.equal(await removeAuthFile(t.home), true, "logout of everything clears a broken file");
});

Deno.test("provider keys keep the other sections of auth.json; logout of every key keeps them", async () => {
  await using t = await tempTree();
  const file = authFile(t.home);
  const mcp = { docs: { url: "https://docs.example/mcp", tokens: { access_token: "a" } } };
  await Deno.writeTextFile(file, JSON.stringify({ mcp }));
  await storeKey(t.home, "openai", "sk-one");
  assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), {
    mcp,
    providers: { openai: { api_key: "sk-one" } },
  });
  assert.equal(await removeStoredKey(t.home, "openai"), true);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), { mcp }, "the file stays for mcp");
  await storeKey(t.home, "openai", "sk-two");
  assert.equal(await removeStoredKeys(t.home), true);
  assert.equal(await removeStoredKeys(t.home), false);
  assert.deepEqual(readAuthSections(t.home), { mcp });
  await writeAuthSection(t.home, "mcp", undefined);
  await assert.rejects(() => Deno.stat(file), Deno.errors.NotFound, "the last section takes it");
  await Deno.writeTextFile(file, "{broken");
  assert.equal(await removeStoredKeys(t.home), true, "a broken file goes whole");
});
