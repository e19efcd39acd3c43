import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "smol-toml";
import { storeKey } from "../../config/auth.ts";
import { addTopLevelKeys, needsFirstRun } from "../../config/provider_setup.ts";
import { runFirstRun } from "./first_run.ts";

/** Parsed TOML as plain objects (the parser's tables have a null prototype). */
function plain(text: string): unknown {
  return JSON.parse(JSON.stringify(parse(text)));
}

function scriptedIO(answers: string[]) {
  const printed: string[] = [];
  return {
    printed,
    io: {
      print: (text: string) => printed.push(text),
      readLine: () => Promise.resolve(answers.shift()),
    },
  };
}

const NOTHING_LOCAL = { probe: () => Promise.resolve(undefined) };

/** The number the picker gave the entry whose label matches `label`. */
function numberOf(printed: string[], label: RegExp): string {
  const line = printed.find((l) => label.test(l));
  assert.ok(line, printed.join("\n"));
  return /^ {2}(\d+)\) /.exec(line)![1];
}

Deno.test("needsFirstRun() is true without a configured provider and without a key for the default one", async () => {
  const home = await Deno.makeTempDir();
  try {
    assert.equal(await needsFirstRun(home, {}), true);
    assert.equal(await needsFirstRun(home, { DEEPSEEK_API_KEY: "k" }), true);
    assert.equal(await needsFirstRun(home, { OPENAI_API_KEY: "k" }), false);
    assert.equal(await needsFirstRun(home, { OPENAI_API_KEY: " " }), true);
    await Deno.writeTextFile(
      join(home, "config.toml"),
      '[projects."/x"]\ntrust_level = "trusted"\n',
    );
    assert.equal(await needsFirstRun(home, {}), true);
    await storeKey(home, "openai", "stored");
    assert.equal(await needsFirstRun(home, {}), false);
    await Deno.remove(join(home, "auth.json"));
    await Deno.writeTextFile(join(home, "config.toml"), 'model = "m"\n');
    assert.equal(await needsFirstRun(home, {}), false);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("runFirstRun() offers every hosted built-in, local servers found and a custom endpoint", async () => {
  const home = await Deno.makeTempDir();
  try {
    await storeKey(home, "moonshot", "stored");
    const { io, printed } = scriptedIO(["1"]);
    const probe = (url: string) =>
      Promise.resolve(url.includes("11434") ? ["qwen3-coder:30b", "llama3"] : undefined);
    const chosen = await runFirstRun(home, io, { probe, env: { DEEPSEEK_API_KEY: "k" } });
    assert.deepEqual(chosen, { provider: "ollama", model: "qwen3-coder:30b" });
    const menu = printed.join("\n");
    assert.match(menu, /^ {2}1\) Ollama on this machine \(2 model\(s\)/m);
    assert.doesNotMatch(menu, /LM Studio/);
    for (const name of ["OpenAI", "Anthropic", "Zhipu AI", "OpenRouter", "Ollama Cloud"]) {
      assert.match(menu, new RegExp(`^ {2}\\d+\\) ${name} \\(`, "m"));
    }
    assert.match(menu, /\) DeepSeek \(deepseek-chat, key set\)$/m);
    assert.match(menu, /\) Moonshot AI \([^)]*, key set\)$/m);
    assert.match(menu, /\) OpenAI \([^,)]*\)$/m);
    assert.match(menu, /\) Another OpenAI-compatible endpoint/);
    const text = await Deno.readTextFile(join(home, "config.toml"));
    assert.match(text, /^# /, "a new file starts with a comment header");
    assert.deepEqual(plain(text), { model_provider: "ollama", model: "qwen3-coder:30b" });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("runFirstRun() asks again after an answer that is not a number on the list", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { io, printed } = scriptedIO(["deepseek", "99", "0", "1"]);
    const chosen = await runFirstRun(home, io, NOTHING_LOCAL);
    assert.equal(chosen?.provider, "openai");
    assert.equal(printed.filter((l) => /^Type a number from 1 to \d+/.test(l)).length, 3);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a hosted choice joins an existing file without losing its keys or comments", async () => {
  const home = await Deno.makeTempDir();
  try {
    const file = join(home, "config.toml");
    const before = '# mine\n\n[projects."/src/app"]\ntrust_level = "trusted" # why\n';
    await Deno.writeTextFile(file, before);
    const { io, printed } = scriptedIO(["1"]);
    const chosen = await runFirstRun(home, io, NOTHING_LOCAL);
    assert.equal(chosen?.provider, "openai");
    assert.match(
      printed.at(-1)!,
      /^Wrote model_provider = "openai" and model = ".+" to .+config\.toml$/,
    );
    const text = await Deno.readTextFile(file);
    assert.ok(text.startsWith("# mine\n\n"), text);
    assert.ok(text.endsWith(before.slice("# mine\n\n".length)), text);
    assert.deepEqual(plain(text), {
      model_provider: "openai",
      model: chosen?.model,
      projects: { "/src/app": { trust_level: "trusted" } },
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the custom endpoint writes its provider table, with an id no other provider has", async () => {
  const home = await Deno.makeTempDir();
  try {
    const file = join(home, "config.toml");
    const before = "# keep me\n[model_providers.localhost]\n" +
      'base_url = "http://localhost:9/v1"\n';
    await Deno.writeTextFile(file, before);
    const first = scriptedIO(["x"]);
    await runFirstRun(home, first.io, NOTHING_LOCAL);
    const endpoint = numberOf(first.printed, /Another OpenAI-compatible endpoint/);
    const { io, printed } = scriptedIO([
      endpoint,
      "localhost:8000",
      "http://localhost:8000/v1/",
      "qwen3-coder",
      "MY KEY",
      "MY_KEY",
    ]);
    const chosen = await runFirstRun(home, io, NOTHING_LOCAL);
    assert.deepEqual(chosen, { provider: "localhost-2", model: "qwen3-coder" });
    assert.match(printed.join("\n"), /"localhost:8000" is not an http:\/\/ or https:\/\/ URL/);
    assert.match(printed.join("\n"), /"MY KEY" is not a variable name/);
    const text = await Deno.readTextFile(file);
    assert.ok(text.startsWith("# keep me\n"), text);
    assert.deepEqual(plain(text), {
      model_provider: "localhost-2",
      model: "qwen3-coder",
      model_providers: {
        localhost: { base_url: "http://localhost:9/v1" },
        "localhost-2": {
          name: "localhost:8000",
          base_url: "http://localhost:8000/v1",
          wire_api: "chat",
          env_key: "MY_KEY",
        },
      },
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("skipping the first run writes nothing and names the config file", async () => {
  const home = await Deno.makeTempDir();
  try {
    for (const answers of [[""], [], ["99", ""]]) {
      const { io, printed } = scriptedIO(answers);
      assert.equal(await runFirstRun(home, io, NOTHING_LOCAL), undefined);
      assert.match(printed.at(-1)!, /^Skipped\. Set model_provider and model in .+config\.toml/);
    }
    const custom = scriptedIO(["x"]);
    await runFirstRun(home, custom.io, NOTHING_LOCAL);
    const endpoint = numberOf(custom.printed, /Another OpenAI-compatible endpoint/);
    const { io } = scriptedIO([endpoint, "http://127.0.0.1:1/v1", ""]);
    assert.equal(await runFirstRun(home, io, NOTHING_LOCAL), undefined);
    await assert.rejects(() => Deno.stat(join(home, "config.toml")), Deno.errors.NotFound);
    await addTopLevelKeys(join(home, "x.toml"), { a: "b" });
    assert.deepEqual(plain(await Deno.readTextFile(join(home, "x.toml"))), { a: "b" });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the first run makes a missing home 0700 and writes config.toml 0600", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const home = join(dir, ".openinterpreter");
    const { io } = scriptedIO(["1"]);
    await runFirstRun(home, io, NOTHING_LOCAL);
    assert.equal((await Deno.stat(home)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(join(home, "config.toml"))).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
