/** Test helper: the transport behaviour every wire must pass, against a scripted server. */
import assert from "node:assert/strict";
import type { StreamEvent } from "../model/stream.ts";
import { collect, type Reply, serveReplies, simpleRequest, testSettings } from "./_testing.ts";
import type { Provider, ProviderSettings, WireApi } from "./types.ts";

/** What a transport test suite needs: the wire, its provider, and two canned streams. */
export interface TransportSpec {
  wire: WireApi;
  create: (settings: ProviderSettings) => Provider;
  /** A complete successful stream whose text is "ok". */
  okBody: string;
  /** The start of a stream, up to one text delta. */
  partialBody: string;
}

/** A spec with the helpers its tests share. */
interface TransportCase extends TransportSpec {
  /** Streams one simple request against `replies`; the events and how many requests came. */
  runCounted(
    replies: Reply[],
    overrides?: Partial<ProviderSettings>,
  ): Promise<{ events: StreamEvent[]; requests: number }>;
  /** The events of `runCounted()`. */
  run(replies: Reply[], overrides?: Partial<ProviderSettings>): Promise<StreamEvent[]>;
}

/** The transport behaviour every wire shares, exercised against a real server. */
export function transportTests(spec: TransportSpec): void {
  const runCounted: TransportCase["runCounted"] = async (replies, overrides = {}) => {
    await using server = serveReplies(replies);
    const provider = spec.create(testSettings(server.baseUrl, spec.wire, overrides));
    const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
    return { events, requests: server.requests.length };
  };
  const run: TransportCase["run"] = async (replies, overrides) =>
    (await runCounted(replies, overrides)).events;
  const t: TransportCase = { ...spec, runCounted, run };
  retryTests(t);
  timeoutTests(t);
  foreignReplyTests(t);
  connectionTests(t);
}

function jsonError(message: string): string {
  return JSON.stringify({ error: { message, type: "x_error" } });
}

/** Retries, and errors the server reports, before any output. */
function retryTests(t: TransportCase): void {
  const { wire, okBody, run } = t;
  Deno.test(`${wire}: stream() retries after 429 honoring Retry-After`, async () => {
    const events = await run([
      { status: 429, headers: { "retry-after": "0" }, body: jsonError("slow down") },
      { body: okBody },
    ]);
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry");
    assert.equal(retry.delayMs, 0);
    assert.match(retry.reason, /HTTP 429: slow down/);
    const last = events.at(-1);
    assert.ok(last?.type === "done");
    assert.deepEqual(last.blocks, [{ type: "text", text: "ok" }]);
  });

  Deno.test(`${wire}: stream() retries after 500 then succeeds`, async () => {
    const events = await run([
      { status: 500, headers: { "retry-after-ms": "5" }, body: jsonError("boom") },
      { body: okBody },
    ]);
    assert.deepEqual(events.filter((e) => e.type === "retry").map((e) => e.type), ["retry"]);
    assert.equal(events.at(-1)?.type, "done");
  });

  Deno.test(`${wire}: stream() gives up after requestMaxRetries`, async () => {
    const fail = { status: 503, headers: { "retry-after": "0" }, body: jsonError("down") };
    const events = await run([fail, fail, fail], { requestMaxRetries: 1 });
    assert.equal(events.filter((e) => e.type === "retry").length, 1);
    const last = events.at(-1);
    assert.ok(last?.type === "error");
    assert.equal(last.error.status, 503);
    assert.equal(last.error.retryable, true);
  });

  Deno.test(`${wire}: stream() ends with an error event on malformed SSE data`, async () => {
    const events = await run([{ body: "event: message_start\ndata: {not json\n\n" }]);
    const last = events.at(-1);
    assert.ok(last?.type === "error");
    assert.match(last.error.message, /Malformed stream from Test/);
  });

  Deno.test(`${wire}: stream() retries a transient error event sent before any output`, async () => {
    const overloaded = {
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    };
    const events = await run([
      { body: `event: error\ndata: ${JSON.stringify(overloaded)}\n\n` },
      { body: okBody },
    ]);
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry");
    assert.match(retry.reason, /Test reported an error: Overloaded/);
    assert.equal(events.at(-1)?.type, "done");
  });

  Deno.test(`${wire}: stream() maps 401 to an error naming the key variable`, async () => {
    const events = await run([{ status: 401, body: jsonError("bad key") }]);
    assert.equal(events.length, 1);
    const last = events[0];
    assert.ok(last.type === "error");
    assert.equal(last.error.status, 401);
    assert.match(last.error.message, /HTTP 401: bad key/);
    assert.match(last.error.hint ?? "", /\$TEST_API_KEY/);
  });
}

/** The idle, first-token and whole-request bounds of a stream. */
function timeoutTests(t: TransportCase): void {
  const { wire, okBody, partialBody, run, runCounted } = t;
  Deno.test(`${wire}: stream() says the model is not answering when the stream goes idle`, async () => {
    const events = await run([{ hold: true }], { streamIdleTimeoutMs: 100, streamMaxRetries: 0 });
    const last = events.at(-1);
    assert.ok(last?.type === "error");
    assert.equal(last.error.message, "Test is not answering: no data for 100 ms");
    assert.match(last.error.hint ?? "", /stream_idle_timeout_ms/);
    assert.equal(last.error.retryable, true);
  });

  Deno.test(`${wire}: stream() does not count keep-alive comments as progress`, async () => {
    const { events, requests } = await runCounted(
      [{ repeat: { part: ": ping\n\n", everyMs: 10 } }, {
        repeat: { part: ": ping\n\n", everyMs: 10 },
      }],
      { streamIdleTimeoutMs: 100, streamMaxRetries: 1 },
    );
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry?.type === "retry", JSON.stringify(events));
    assert.equal(retry.reason, "Test is not answering: no data for 100 ms");
    const last = events.at(-1);
    assert.ok(last?.type === "error", JSON.stringify(last));
    assert.equal(
      last.error.message,
      "Test is not answering: no data for 100 ms (gave up after 2 attempts)",
    );
    assert.equal(requests, 2);
  });

  Deno.test(`${wire}: stream() bounds the time to the first token when data brings no output`, async () => {
    const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
    const { events, requests } = await runCounted([{ repeat: { part: ping, everyMs: 10 } }], {
      streamIdleTimeoutMs: 5_000,
      firstTokenTimeoutMs: 150,
      streamMaxRetries: 0,
    });
    assert.equal(events.length, 1, JSON.stringify(events));
    const last = events[0];
    assert.ok(last.type === "error");
    assert.equal(last.error.message, "Test is not answering: no output within 150 ms");
    assert.equal(last.error.retryable, true);
    assert.equal(requests, 1);
  });

  Deno.test(`${wire}: stream() bounds the whole request and does not retry past the bound`, async () => {
    const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
    const { events, requests } = await runCounted(
      [{ body: partialBody, repeat: { part: ping, everyMs: 10 } }, { body: okBody }],
      { streamIdleTimeoutMs: 5_000, requestTimeoutMs: 200, streamMaxRetries: 2 },
    );
    assert.deepEqual(events.map((e) => e.type), ["text_delta", "error"]);
    const last = events.at(-1);
    assert.ok(last?.type === "error");
    assert.equal(
      last.error.message,
      "Test did not finish the reply within 200 ms, the limit set by " +
        "model_providers.test.stream_max_reply_ms",
    );
    assert.equal(last.error.retryable, false);
    assert.equal(requests, 1);
  });
}

/** Replies that are no API stream: HTML pages, a JSON error with status 200. */
function foreignReplyTests(t: TransportCase): void {
  const { wire, okBody, run, runCounted } = t;
  Deno.test(`${wire}: stream() names an HTML page sent instead of an event stream`, async () => {
    const page = "<!DOCTYPE html>\n<html><head><title> Sign in to\n the network </title></head>" +
      "<body><form>...</form></body></html>";
    const { events, requests } = await runCounted([{
      headers: { "content-type": "text/html; charset=utf-8" },
      body: page,
    }, { body: okBody }]);
    assert.equal(events.length, 1, JSON.stringify(events));
    const last = events[0];
    assert.ok(last.type === "error");
    assert.match(
      last.error.message,
      /^Test answered with an HTML page \("Sign in to the network"\) instead of an API stream: http:\/\/127\.0\.0\.1:\d+\/v1\/(chat\/completions|responses|messages|models\/test-model:streamGenerateContent\?alt=sse)$/,
    );
    assert.doesNotMatch(last.error.message, /finish_reason|stop_reason|response\.completed/);
    assert.match(last.error.hint ?? "", /^Check base_url "http:\/\/127\.0\.0\.1:\d+\/v1".*proxy/);
    assert.equal(last.error.retryable, false);
    assert.equal(requests, 1);
  });

  Deno.test(`${wire}: stream() names an HTML error page from a proxy`, async () => {
    const page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    const events = await run([{
      status: 502,
      headers: { "content-type": "text/html" },
      body: page,
    }], { requestMaxRetries: 0 });
    const last = events.at(-1);
    assert.ok(last?.type === "error");
    assert.match(
      last.error.message,
      /^Test returned HTTP 502 with an HTML page \("502 Bad Gateway"\) instead of an API reply: http:\/\/127\.0\.0\.1:\d+\/v1\//,
    );
    assert.match(last.error.hint ?? "", /proxy/);
    assert.equal(last.error.status, 502);
    assert.equal(last.error.retryable, true);
  });

  Deno.test(`${wire}: stream() reports an error sent as a JSON reply with status 200`, async () => {
    const events = await run([{
      headers: { "content-type": "application/json" },
      body: jsonError("quota exceeded"),
    }]);
    assert.equal(events.length, 1);
    const last = events[0];
    assert.ok(last.type === "error");
    assert.equal(last.error.message, "Test reported an error: quota exceeded");
    assert.equal(last.error.retryable, false);
  });
}

/** An unreachable server, and a stream the caller aborts. */
function connectionTests(t: TransportCase): void {
  const { wire, create, partialBody } = t;
  Deno.test(`${wire}: stream() reports an unreachable server`, async () => {
    const server = serveReplies([]);
    const baseUrl = server.baseUrl;
    await server[Symbol.asyncDispose]();
    const provider = create(testSettings(baseUrl, wire, { requestMaxRetries: 0 }));
    const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
    const last = events.at(-1);
    assert.ok(last?.type === "error");
    assert.match(last.error.message, /Cannot reach Test at http:\/\/127\.0\.0\.1/);
    assert.equal(last.error.retryable, true);
  });

  Deno.test(`${wire}: stream() stops with "aborted" and keeps partial text`, async () => {
    await using server = serveReplies([{ body: partialBody, hold: true }]);
    const provider = create(testSettings(server.baseUrl, wire));
    const abort = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of provider.stream(simpleRequest(), abort.signal)) {
      events.push(event);
      if (event.type === "text_delta") abort.abort();
    }
    const last = events.at(-1);
    assert.ok(last?.type === "done");
    assert.equal(last.stop, "aborted");
    assert.deepEqual(last.blocks, [{ type: "text", text: "ok" }]);
  });
}
