import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "smol-toml";
import { addTopLevelKeys, needsFirstRun, runFirstRun } from "./first_run.ts";

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

Deno.test("the first run is needed only without a configured provider or a provider key", async () => {
  const home = await Deno.makeTempDir();
  try {
    assert.equal(await needsFirstRun(home, {}), true);
    assert.equal(await needsFirstRun(home, { DEEPSEEK_API_KEY: "k" }), false);
    await Deno.writeTextFile(
      join(home, "config.toml"),
      '[projects."/x"]\ntrust_level = "trusted"\n',
    );
    assert.equal(await needsFirstRun(home, {}), true);
    await Deno.writeTextFile(join(home, "config.toml"), 'model = "m"\n');
    assert.equal(await needsFirstRun(home, {}), false);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("choosing a local Ollama writes the provider and its first model to a new config", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { io, printed } = scriptedIO(["1"]);
    const probe = (url: string) =>
      Promise.resolve(url.includes("11434") ? ["qwen3-coder:30b", "llama3"] : undefined);
    const chosen = await runFirstRun(home, io, probe);
    assert.deepEqual(chosen, { provider: "ollama", model: "qwen3-coder:30b" });
    assert.match(printed.join("\n"), /1\) Ollama on this machine \(2 model\(s\)/);
    const text = await Deno.readTextFile(join(home, "config.toml"));
    assert.match(text, /^# /, "a new file starts with a comment header");
    assert.deepEqual(plain(text), { model_provider: "ollama", model: "qwen3-coder:30b" });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a hosted choice names the key variable; keys join an existing file without losing it", async () => {
  const home = await Deno.makeTempDir();
  try {
    const file = join(home, "config.toml");
    const before = '# mine\n\n[projects."/src/app"]\ntrust_level = "trusted"\n';
    await Deno.writeTextFile(file, before);
    const { io, printed } = scriptedIO(["1"]);
    const chosen = await runFirstRun(home, io, () => Promise.resolve(undefined));
    assert.equal(chosen?.provider, "openai");
    assert.match(printed.join("\n"), /Set OPENAI_API_KEY to your key/);
    const text = await Deno.readTextFile(file);
    assert.ok(text.startsWith("# mine\n\n"), text);
    assert.deepEqual(plain(text), {
      model_provider: "openai",
      model: chosen?.model,
      projects: { "/src/app": { trust_level: "trusted" } },
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("skipping the first run writes nothing", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { io } = scriptedIO([""]);
    assert.equal(await runFirstRun(home, io, () => Promise.resolve(undefined)), undefined);
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
    await runFirstRun(home, io, () => Promise.resolve(undefined));
    assert.equal((await Deno.stat(home)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(join(home, "config.toml"))).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
