import assert from "node:assert/strict";
import {
  describeError,
  endpointUrl,
  HttpError,
  requestHeaders,
  retryAfterMs,
  retryDelayMs,
  StreamReportedError,
} from "./_http.ts";
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
  const denoFetch = new TypeError(
    "error sending request for url (http://h/v1/x): client error (Connect): tcp connect error",
  );
  const fetchFailure = describeError(denoFetch, ctx).failure;
  assert.equal(fetchFailure.message, "Cannot reach Test at http://h/v1: tcp connect error");
});

Deno.test("describeError() falls back to the status text when the body is empty", () => {
  const err = new HttpError(429, { headers: new Headers(), body: undefined, statusText: "Busy" });
  assert.equal(describeError(err, ctx).failure.message, "Test returned HTTP 429: Busy");
  const bare = new HttpError(500, { headers: new Headers(), body: undefined });
  assert.equal(describeError(bare, ctx).failure.message, "Test returned HTTP 500");
});

Deno.test("describeError() reads errors reported inside a stream in both vendors' shapes", () => {
  const anthropic = new StreamReportedError({
    type: "error",
    error: { type: "overloaded_error", message: "Overloaded" },
  });
  assert.deepEqual(describeError(anthropic, ctx).failure, {
    message: "Test reported an error: Overloaded",
    retryable: true,
  });
  const openai = new StreamReportedError({ error: { code: "server_error", message: "Oops" } });
  assert.deepEqual(describeError(openai, ctx).failure, {
    message: "Test reported an error: Oops",
    retryable: true,
  });
  const invalid = new StreamReportedError({ error: { type: "invalid_request_error" } });
  assert.equal(describeError(invalid, ctx).failure.retryable, false);
});

Deno.test("endpointUrl() appends the path to the base path and adds query parameters", () => {
  assert.equal(
    endpointUrl("http://h:8/v1/", { path: "/responses", query: { "api-version": "7" } }),
    "http://h:8/v1/responses?api-version=7",
  );
  assert.equal(
    endpointUrl("https://h/openai/v1?key=1", { path: "/chat/completions" }),
    "https://h/openai/v1/chat/completions?key=1",
  );
});

Deno.test("requestHeaders() lets configured headers win over defaults and authentication", () => {
  const settings = testSettings("http://h/v1", "chat", {
    headers: { Authorization: "Token mine", "User-Agent": "custom", "X-Extra": "1" },
  });
  const headers = requestHeaders(settings, { authorization: "Bearer sk-test" });
  assert.equal(headers.get("authorization"), "Token mine");
  assert.equal(headers.get("user-agent"), "custom");
  assert.equal(headers.get("x-extra"), "1");
  assert.equal(headers.get("content-type"), "application/json");
  assert.equal(headers.get("accept"), "text/event-stream");
});
