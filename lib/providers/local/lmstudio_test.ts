import assert from "node:assert/strict";
import { parseV0, parseV1 } from "./lmstudio.ts";

Deno.test("parseV1() reads each model's architecture and params_string", () => {
  const [model, bare] = parseV1({
    models: [
      { type: "llm", key: "qwen/qwen3-0.6b", architecture: "qwen3", params_string: "0.6B" },
      { type: "llm", key: "odd", architecture: null, params_string: "many" },
    ],
  });
  assert.equal(model.architecture, "qwen3");
  assert.deepEqual(model.parameters, { count: 6e8, text: "0.6B" });
  assert.equal(bare.architecture, undefined);
  assert.equal(bare.parameters, undefined, "a size it cannot read is left out");
});

Deno.test("parseV0() reads the architecture from arch, and has no parameter count", () => {
  const [model] = parseV0({ data: [{ id: "m", type: "llm", arch: "llama", state: "loaded" }] });
  assert.equal(model.architecture, "llama");
  assert.equal(model.parameters, undefined);
});
