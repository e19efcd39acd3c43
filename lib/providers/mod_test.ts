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

Deno.test("importing mod.ts loads no SDK", async () => {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `await import(${JSON.stringify(new URL("./mod.ts", import.meta.url).href)});` +
      `const { builtinProvider } = await import(${JSON.stringify(new URL("./mod.ts", import.meta.url).href)});` +
      `console.log(builtinProvider("openai").id)`,
    ],
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout } = await command.output();
  assert.equal(code, 0);
  assert.equal(new TextDecoder().decode(stdout).trim(), "openai");
});
