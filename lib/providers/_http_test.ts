import assert from "node:assert/strict";
import { describeError, retryAfterMs, retryDelayMs, sdkClientOptions } from "./_http.ts";
import { testSettings } from "./_testing.ts";

const ctx = { settings: testSettings("http://h/v1", "chat"), model: "m1" };
const httpError = (status: number, error: unknown, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`${status} fallback`), { status, error, headers: new Headers(headers) });

Deno.test("retryAfterMs() reads retry-after-ms, seconds and HTTP dates, capped at a minute", () => {
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "250" })), 250);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "2" })), 2000);
  const now = Date.parse("2030-01-01T00:00:00Z");
  assert.equal(
    retryAfterMs(new Headers({ "retry-after": "Tue, 01 Jan 2030 00:00:05 GMT" }), now),
    5000,
  );
  assert.equal(retryAfterMs(new Headers({ "retry-after": "3600" })), 60_000);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "soon" })), undefined);
  assert.equal(retryAfterMs(new Headers()), undefined);
});

Deno.test("retryDelayMs() prefers the server delay, else backs off exponentially", () => {
  assert.equal(retryDelayMs(3, { serverDelayMs: 0 }), 0);
  const half = () => 0.5;
  assert.equal(retryDelayMs(1, { random: half }), 500);
  assert.equal(retryDelayMs(2, { random: half }), 1000);
  assert.equal(retryDelayMs(10, { random: half }), 8000);
});

Deno.test("describeError() gives each HTTP status a hint and retry class", () => {
  const notFound = describeError(httpError(404, { message: "no such model" }), ctx).failure;
  assert.equal(notFound.message, "Test returned HTTP 404: no such model");
  assert.equal(notFound.hint, 'Check base_url "http://h/v1" and model "m1"');
  assert.equal(notFound.retryable, false);
  const limited = describeError(httpError(429, undefined, { "retry-after": "1" }), ctx);
  assert.equal(limited.failure.message, "Test returned HTTP 429: fallback");
  assert.equal(limited.failure.retryable, true);
  assert.equal(limited.retryAfterMs, 1000);
  assert.equal(describeError(httpError(502, "bad gateway"), ctx).failure.retryable, true);
  assert.equal(
    describeError(httpError(400, { error: { message: "x" } }), ctx).failure.retryable,
    false,
  );
  const vetoed = describeError(httpError(500, "x", { "x-should-retry": "false" }), ctx).failure;
  assert.equal(vetoed.retryable, false);
});

Deno.test("describeError() names the provider's config when no key variable is known", () => {
  const settings = testSettings("http://h/v1", "chat", { envKey: undefined });
  const { failure } = describeError(httpError(403, "denied"), { settings, model: "m" });
  assert.equal(failure.hint, 'Check the API key in the configuration of provider "test"');
});

Deno.test("describeError() treats unknown transport errors as retryable connection failures", () => {
  const err = Object.assign(new Error("Connection error."), { cause: new TypeError("refused") });
  const { failure } = describeError(err, ctx);
  assert.equal(failure.message, "Cannot reach Test at http://h/v1: refused");
  assert.equal(failure.retryable, true);
});

Deno.test("sdkClientOptions() removes SDK env headers unless settings set them", () => {
  const name = "INTERPRETER_TEST_CUSTOM_HEADERS";
  Deno.env.set(name, "X-Leak: 1\nX-Kept: 2");
  try {
    const settings = testSettings("http://h/v1", "chat", { headers: { "X-Kept": "mine" } });
    const opts = sdkClientOptions(settings, { baseUrl: "http://h/v1", customHeadersEnv: name });
    assert.deepEqual(opts.defaultHeaders, { "x-leak": null, "X-Kept": "mine" });
    assert.equal(opts.maxRetries, 0);
    assert.equal(opts.apiKey, "sk-test");
  } finally {
    Deno.env.delete(name);
  }
});
