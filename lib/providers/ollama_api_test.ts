import assert from "node:assert/strict";
import { startFakeOllama } from "../../tests/fake_ollama/server.ts";
import { parameterCount, showModel } from "./ollama_api.ts";

Deno.test("parameterCount() reads the sizes Ollama and LM Studio report", () => {
  assert.equal(parameterCount("0.6B"), 6e8);
  assert.equal(parameterCount("751.63M"), 751.63e6);
  assert.equal(parameterCount("8.0B"), 8e9);
  assert.equal(parameterCount(" 7b "), 7e9);
  assert.equal(parameterCount("8x7B"), 56e9);
  assert.equal(parameterCount("270K"), 270e3);
  assert.equal(parameterCount("unknown"), undefined);
  assert.equal(parameterCount(""), undefined);
});

Deno.test("showModel() reads the reported families and parameter size", async () => {
  await using fake = startFakeOllama({
    models: [
      { name: "tiny-coder:latest", family: "qwen2", parameterSize: "0.6B" },
      { name: "plain:1b" },
    ],
  });
  const tiny = await showModel(fake.origin, "tiny-coder:latest");
  assert.deepEqual(tiny?.families, ["qwen2"]);
  assert.deepEqual(tiny?.parameters, { count: 6e8, text: "0.6B" });
  const plain = await showModel(fake.origin, "plain:1b");
  assert.deepEqual(plain?.families, ["plain"]);
  assert.equal(plain?.parameters, undefined, "no size reported, none guessed from the name");
});
