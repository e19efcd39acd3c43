import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { parseOverride } from "./_override.ts";
import { tempTree } from "./_testing.ts";
import { loadConfig } from "./load.ts";

Deno.test("parseOverride() reads the value as TOML, else as a plain string", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["model_context_window=128000", { model_context_window: 128000 }],
    ["harness_guidance=false", { harness_guidance: false }],
    ['model="gpt-5"', { model: "gpt-5" }],
    ["model=gpt-5", { model: "gpt-5" }],
    ["model = o3 ", { model: "o3" }],
    ['sandbox_workspace_write.writable_roots=["/a", "/b"]', {
      sandbox_workspace_write: { writable_roots: ["/a", "/b"] },
    }],
    ['model_providers.x={base_url="http://h/v1", wire_api="chat"}', {
      model_providers: { x: { base_url: "http://h/v1", wire_api: "chat" } },
    }],
    ["model_providers.x.base_url=http://h:8000/v1", {
      model_providers: { x: { base_url: "http://h:8000/v1" } },
    }],
    ['projects."/my=repo".trust_level=trusted', {
      projects: { "/my=repo": { trust_level: "trusted" } },
    }],
    ['model=a\nharness="b"', { model: 'a\nharness="b"' }],
  ];
  for (const [raw, expected] of cases) {
    assert.deepEqual(parseOverride(raw).value, expected, raw);
  }
  assert.deepEqual(parseOverride("model=o3").origin, { kind: "override", text: "-c model=o3" });
});

Deno.test("parseOverride() rejects text without a key or an equals sign", () => {
  for (const raw of ["model", "=o3", " = o3", "a..b=1", "a.=1", "bad key=1"]) {
    assert.throws(() => parseOverride(raw), (error: unknown) => {
      assert.ok(error instanceof UsageError, raw);
      assert.match(error.message, /^Invalid -c override /);
      assert.ok(error.hint);
      return true;
    });
  }
});

Deno.test("parseOverride() rejects a value of the wrong type, naming the override", () => {
  assert.throws(
    () => parseOverride("model_reasoning_effort=fast"),
    /Invalid value "fast" for "model_reasoning_effort" in -c override "model_reasoning_effort=fast": expected one of "none", "minimal"/,
  );
  assert.throws(() => parseOverride("model_context_window=lots"), UsageError);
});

Deno.test("loadConfig() applies -c overrides in order, the last one winning", async () => {
  await using t = await tempTree({ "home/config.toml": '[model_providers.x]\nname = "X"\n' });
  const config = await loadConfig({
    cwd: t.repo,
    env: t.env,
    flags: {},
    overrides: ["model=a", "model_providers.x.base_url=http://h/v1", "model=b", "modle=c"],
  });
  assert.equal(config.values.model, "b");
  assert.deepEqual(config.origin("model"), { kind: "override", text: "-c model=b" });
  assert.deepEqual(config.values.model_providers.x, { name: "X", base_url: "http://h/v1" });
  assert.equal(config.origin("model_providers.x.name")?.kind, "user");
  assert.deepEqual(config.warnings, [
    'Unknown key "modle" in -c override "modle=c"; did you mean "model"?',
  ]);
});
