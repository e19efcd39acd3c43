import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { codexSessionConfig, firstPrompt, overrideOf } from "./call_config.ts";

Deno.test("codexSessionConfig() puts a codex call's arguments over the server's settings", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "sub"));
    const base = {
      cwd: dir,
      model: "base-model",
      sandbox: "read-only" as const,
      overrides: [overrideOf("model_reasoning_effort", "low")],
    };
    const config = await codexSessionConfig(base, {
      prompt: "hi",
      cwd: "sub",
      model: "m",
      profile: "p",
      sandbox: "workspace-write",
      "approval-policy": "never",
      config: { "sandbox_workspace_write.network_access": true, 'a."b.c"': { d: 1 } },
      "base-instructions": "Be brief.",
    });
    assert.equal(config.cwd, join(dir, "sub"));
    assert.equal(config.model, "m");
    assert.equal(config.profile, "p");
    assert.equal(config.sandbox, "workspace-write");
    assert.equal(config.approval, "never");
    assert.equal(config.origin, "exec");
    assert.deepEqual(config.overrides?.map((o) => [o.keyPath, o.value]), [
      [["model_reasoning_effort"], "low"],
      [["sandbox_workspace_write", "network_access"], true],
      [["a", "b.c"], { d: 1 }],
    ]);
    assert.equal(config.instructions?.({} as never, {} as never), "Be brief.");
    const plain = await codexSessionConfig(base, { prompt: "hi" });
    assert.equal(plain.model, "base-model");
    assert.equal(plain.instructions, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("codexSessionConfig() refuses a cwd that is not a directory, naming it", async () => {
  await assert.rejects(
    codexSessionConfig({ cwd: "/" }, { prompt: "hi", cwd: "/no/such/dir" }),
    (error: UserError) => error.message.includes('"/no/such/dir"') && !!error.hint,
  );
});

Deno.test("overrideOf() refuses a config key that is not a key path", () => {
  assert.throws(() => overrideOf("a..b", 1), /"a\.\.b" of the "config" argument/);
});

Deno.test("firstPrompt() puts developer instructions before the task as context", () => {
  assert.deepEqual(firstPrompt({ prompt: "task", "developer-instructions": "Use tabs." }), [
    { type: "text", text: "Use tabs.", context: true },
    { type: "text", text: "task" },
  ]);
  assert.deepEqual(firstPrompt({ prompt: "task" }), [{ type: "text", text: "task" }]);
});
