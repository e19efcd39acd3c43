import assert from "node:assert/strict";
import type { StreamEvent } from "../model/stream.ts";
import {
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_RETRIES,
  driveStream,
  streamBounds,
  type WireDriver,
} from "./_drive.ts";
import { retryDelayMs, StreamInterruptedError } from "./_http.ts";
import { collect, testSettings } from "./_testing.ts";
import type { ProviderSettings } from "./types.ts";

/** A chunk (string), a pause in ms (number), a thrown error, or "HOLD" to stall until aborted. */
type Step = string | number | Error;

/** A driver whose attempts replay scripted steps; each string chunk becomes a text delta. */
function scripted(
  attempts: (Step[] | Error)[],
  overrides: Partial<ProviderSettings> = {},
): WireDriver<string[]> & { opened: number } {
  const driver = {
    opened: 0,
    settings: testSettings("http://h/v1", "chat", overrides),
    model: "m",
    open(signal: AbortSignal): Promise<AsyncIterable<unknown>> {
      const script = attempts[driver.opened++];
      if (script instanceof Error) return Promise.reject(script);
      return Promise.resolve((async function* () {
        for (const step of script) {
          if (step instanceof Error) throw step;
          if (step === "HOLD") {
            await new Promise((resolve) =>
              signal.addEventListener("abort", resolve, { once: true })
            );
          } else if (typeof step === "number") {
            await new Promise((resolve) => setTimeout(resolve, step));
          } else {
            yield step;
          }
        }
      })());
    },
    init: (): string[] => [],
    step(chunk: unknown, state: string[]): StreamEvent[] {
      state.push(String(chunk));
      return [{ type: "text_delta", text: String(chunk) }];
    },
    finish(state: string[], how: "complete" | "aborted"): StreamEvent {
      const blocks = [{ type: "text" as const, text: state.join("") }];
      const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
      return { type: "done", blocks, stop: how === "aborted" ? "aborted" : "end_turn", usage };
    },
  };
  return driver;
}

const status = (code: number) =>
  Object.assign(new Error("x"), { status: code, headers: new Headers({ "retry-after": "0" }) });

const reset = () => new StreamInterruptedError(new TypeError("error reading a body"));

Deno.test("driveStream() retries a stream that breaks off and discards its partial reply", async () => {
  const driver = scripted([["a", reset()], ["b", "c"]]);
  const events = await collect(driveStream(driver, new AbortController().signal));
  assert.deepEqual(events.map((e) => e.type), [
    "text_delta",
    "retry",
    "text_delta",
    "text_delta",
    "done",
  ]);
  const retry = events[1];
  assert.ok(retry.type === "retry");
  assert.equal(retry.discarded, true);
  assert.equal(retry.maxRetries, 2);
  assert.match(retry.reason, /^The stream from Test was interrupted: /);
  const last = events.at(-1);
  assert.ok(last?.type === "done");
  assert.deepEqual(last.blocks, [{ type: "text", text: "bc" }]);
  assert.equal(driver.opened, 2);
});

Deno.test("driveStream() says how many attempts it made when it gives up", async () => {
  const driver = scripted([["a", reset()], ["b", reset()]], { streamMaxRetries: 1 });
  const events = await collect(driveStream(driver, new AbortController().signal));
  const last = events.at(-1);
  assert.ok(last?.type === "error");
  assert.match(
    last.error.message,
    /^The stream from Test was interrupted: .* \(gave up after 2 attempts\)$/,
  );
  assert.doesNotMatch(last.error.hint ?? "", /network/);
  assert.equal(driver.opened, 2);
});

Deno.test("driveStream() marks a retry before any output as discarding nothing", async () => {
  const driver = scripted([status(503), ["ok"]]);
  const events = await collect(driveStream(driver, new AbortController().signal));
  const retry = events[0];
  assert.ok(retry.type === "retry");
  assert.equal(retry.discarded, false);
});

Deno.test("driveStream() does not retry failures that are not retryable", async () => {
  const driver = scripted([status(400), ["ok"]]);
  const events = await collect(driveStream(driver, new AbortController().signal));
  assert.deepEqual(events.map((e) => e.type), ["error"]);
  assert.equal(driver.opened, 1);
});

Deno.test("driveStream() numbers retries and reports the delay", async () => {
  const driver = scripted([status(503), status(429), ["ok"]]);
  const events = await collect(driveStream(driver, new AbortController().signal));
  const retries = events.filter((e) => e.type === "retry");
  assert.deepEqual(retries.map((e) => e.type === "retry" && [e.attempt, e.delayMs]), [[1, 0], [
    2,
    0,
  ]]);
  assert.equal(events.at(-1)?.type, "done");
  assert.equal(driver.opened, 3);
});

Deno.test("driveStream() ends with aborted when the signal fires during a retry wait", async () => {
  const slow = Object.assign(new Error("x"), {
    status: 503,
    headers: new Headers({ "retry-after": "30" }),
  });
  const abort = new AbortController();
  const events: StreamEvent[] = [];
  for await (const event of driveStream(scripted([slow, ["never"]]), abort.signal)) {
    events.push(event);
    if (event.type === "retry") abort.abort();
  }
  assert.deepEqual(events.map((e) => e.type), ["retry", "done"]);
  assert.equal((events[1] as { stop: string }).stop, "aborted");
});

Deno.test("driveStream() returns aborted at once for an already aborted signal", async () => {
  const driver = scripted([["x"]]);
  const events = await collect(driveStream(driver, AbortSignal.abort()));
  assert.deepEqual(events, [{
    type: "done",
    blocks: [{ type: "text", text: "" }],
    stop: "aborted",
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
  }]);
  assert.equal(driver.opened, 0);
});

Deno.test("driveStream() resets the idle watchdog on every chunk", async () => {
  const driver = scripted([["a", 30, "b", 30, "c", "HOLD"]], {
    streamIdleTimeoutMs: 50,
    streamMaxRetries: 0,
  });
  const events = await collect(driveStream(driver, new AbortController().signal));
  assert.deepEqual(events.map((e) => e.type), ["text_delta", "text_delta", "text_delta", "error"]);
  const last = events.at(-1);
  assert.ok(last?.type === "error");
  assert.equal(last.error.message, "Test is not answering: no data for 50 ms");
});

Deno.test("driveStream() retries a stall after output and says the model is not answering", async () => {
  const driver = scripted([["a", "HOLD"], ["b"]], { streamIdleTimeoutMs: 50 });
  const events = await collect(driveStream(driver, new AbortController().signal));
  assert.deepEqual(events.map((e) => e.type), ["text_delta", "retry", "text_delta", "done"]);
  const retry = events[1];
  assert.ok(retry.type === "retry");
  assert.equal(retry.reason, "Test is not answering: no data for 50 ms");
  assert.equal(retry.discarded, true);
});

Deno.test("streamBounds() keeps a stall with the default settings under ten minutes", () => {
  const settings = testSettings("http://h/v1", "chat", {
    streamMaxRetries: DEFAULT_STREAM_MAX_RETRIES,
    streamIdleTimeoutMs: DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  });
  const bounds = streamBounds(settings);
  let worst = bounds.idleMs;
  for (let attempt = 1; attempt <= settings.streamMaxRetries; attempt++) {
    worst += retryDelayMs(attempt, { random: () => 1 }) + bounds.idleMs;
  }
  assert.ok(worst < 10 * 60_000, `a stall takes up to ${worst} ms`);
  assert.deepEqual(bounds, { idleMs: 90_000, firstTokenMs: 180_000, totalMs: 1_800_000 });
});

Deno.test("driveStream() counts failed requests and broken streams on separate budgets", async () => {
  const driver = scripted([status(429), status(500), ["a", reset()], ["b"]], {
    requestMaxRetries: 2,
    streamMaxRetries: 1,
  });
  const events = await collect(driveStream(driver, new AbortController().signal));
  const retries = events.flatMap((e) => e.type === "retry" ? [[e.attempt, e.maxRetries]] : []);
  assert.deepEqual(retries, [[1, 2], [2, 2], [1, 1]]);
  const last = events.at(-1);
  assert.ok(last?.type === "done", JSON.stringify(last));
  assert.deepEqual(last.blocks, [{ type: "text", text: "b" }]);
  assert.equal(driver.opened, 4);
});

Deno.test("driveStream() gives up on a provider that keeps failing after request_max_retries", async () => {
  const failures = Array.from({ length: DEFAULT_REQUEST_MAX_RETRIES + 2 }, () => status(503));
  const driver = scripted(failures, {
    requestMaxRetries: DEFAULT_REQUEST_MAX_RETRIES,
    streamMaxRetries: DEFAULT_STREAM_MAX_RETRIES,
  });
  const events = await collect(driveStream(driver, new AbortController().signal));
  const retries = events.flatMap((e) => e.type === "retry" ? [[e.attempt, e.maxRetries]] : []);
  assert.deepEqual(retries, [[1, 4], [2, 4], [3, 4], [4, 4]]);
  const last = events.at(-1);
  assert.ok(last?.type === "error", JSON.stringify(last));
  assert.match(last.error.message, / \(gave up after 5 attempts\)$/);
  assert.equal(driver.opened, 5);
});
