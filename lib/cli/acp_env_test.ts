import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { withAcpEnv } from "./acp_env.ts";

const ENV = {
  INTERPRETER_HARNESS: "qwen-code",
  INTERPRETER_MODEL: "openai/gpt-5",
  INTERPRETER_EFFORT: "High",
};

Deno.test("withAcpEnv() takes the harness, model and effort from the environment", () => {
  const config = withAcpEnv({ cwd: "/repo" }, ENV);
  assert.equal(config.harness, "qwen-code");
  assert.equal(config.model, "openai/gpt-5");
  assert.equal(config.reasoningEffort, "high");
  assert.deepEqual(config.labels, {
    harness: "INTERPRETER_HARNESS",
    model: "INTERPRETER_MODEL",
    reasoningEffort: "INTERPRETER_EFFORT",
  });
});

Deno.test("withAcpEnv() lets --harness, -m and -c model_reasoning_effort win", () => {
  const effort = { keyPath: ["model_reasoning_effort"], value: "low", origin: "-c" };
  const config = withAcpEnv(
    { cwd: "/repo", harness: "native", model: "fake/m", overrides: [effort] },
    ENV,
  );
  assert.equal(config.harness, "native");
  assert.equal(config.model, "fake/m");
  assert.equal(config.reasoningEffort, undefined);
  assert.equal(config.labels, undefined);
});

Deno.test("withAcpEnv() ignores empty variables and changes nothing without them", () => {
  const empty = { INTERPRETER_HARNESS: " ", INTERPRETER_MODEL: "", INTERPRETER_EFFORT: "" };
  assert.deepEqual(withAcpEnv({ cwd: "/repo" }, empty), { cwd: "/repo" });
  assert.deepEqual(withAcpEnv({ cwd: "/repo" }, {}), { cwd: "/repo" });
});

Deno.test("withAcpEnv() refuses an effort that is none, naming the variable and the choices", () => {
  assert.throws(
    () => withAcpEnv({ cwd: "/repo" }, { INTERPRETER_EFFORT: "max" }),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes('INTERPRETER_EFFORT="max"') &&
      String(error.hint).includes("xhigh"),
  );
});
