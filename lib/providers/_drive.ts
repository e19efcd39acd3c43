/**
 * The stream driver every adapter shares: opens the event stream, feeds chunks to the wire's
 * reducer, and owns retries, the idle watchdog and abort. It never throws.
 */
import { emptyUsage } from "../model/message.ts";
import type { ProviderFailure, StreamEvent } from "../model/stream.ts";
import { describeError, retryDelayMs } from "./_http.ts";
import type { ProviderSettings } from "./types.ts";

/** How one wire API opens a stream and turns its chunks into events. */
export interface WireDriver<S> {
  settings: ProviderSettings;
  model: string;
  /**
   * Sends the request; resolves to the parsed stream once response headers arrive. Calls
   * `onActivity` whenever bytes arrive, so keep-alive comments reset the idle watchdog too.
   */
  open(signal: AbortSignal, onActivity: () => void): Promise<AsyncIterable<unknown>>;
  /** A fresh reducer state for one attempt. */
  init(): S;
  /** Reduces one chunk; an `error` event in the result ends the attempt. */
  step(chunk: unknown, state: S): StreamEvent[];
  /** The last event: `done` (or `error` if the stream ended early), or the aborted `done`. */
  finish(state: S, how: "complete" | "aborted"): StreamEvent;
}

type Attempt =
  | { kind: "final"; event: StreamEvent }
  | { kind: "failed"; failure: ProviderFailure; emitted: boolean; retryAfterMs?: number };

/** Runs `driver` with bounded retries; yields deltas, `retry` events, then one `done` or `error`. */
export async function* driveStream<S>(
  driver: WireDriver<S>,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const { maxRetries } = driver.settings;
  for (let attempt = 1;; attempt++) {
    const result = yield* attemptOnce(driver, signal);
    if (result.kind === "final") {
      yield result.event;
      return;
    }
    const { failure } = result;
    if (!failure.retryable || result.emitted || attempt > maxRetries) {
      yield { type: "error", error: failure };
      return;
    }
    const delayMs = retryDelayMs(attempt, { serverDelayMs: result.retryAfterMs });
    yield { type: "retry", attempt, delayMs, reason: failure.message };
    if (!await sleep(delayMs, signal)) {
      yield { type: "done", blocks: [], stop: "aborted", usage: emptyUsage() };
      return;
    }
  }
}

/** One request. Deltas are yielded as they come; the outcome is returned. */
async function* attemptOnce<S>(
  driver: WireDriver<S>,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent, Attempt> {
  const state = driver.init();
  const aborted = (): Attempt => ({ kind: "final", event: driver.finish(state, "aborted") });
  if (signal.aborted) return aborted();
  const controller = new AbortController();
  const forward = () => controller.abort();
  signal.addEventListener("abort", forward, { once: true });
  const idleMs = driver.settings.streamIdleTimeoutMs;
  let idle = false;
  let emitted = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (idleMs <= 0) return;
    timer = setTimeout(() => {
      idle = true;
      controller.abort();
    }, idleMs);
  };
  const idleFailure = (): Attempt => ({
    kind: "failed",
    emitted,
    failure: {
      message: `Stream idle for ${idleMs} ms: ${driver.settings.name} sent no data`,
      hint: "Try again, or raise stream_idle_timeout_ms for slow models",
      retryable: true,
    },
  });
  try {
    arm();
    const chunks = await driver.open(controller.signal, arm);
    for await (const chunk of chunks) {
      arm();
      for (const event of driver.step(chunk, state)) {
        if (event.type === "error") return { kind: "failed", failure: event.error, emitted };
        emitted = true;
        yield event;
      }
    }
    if (signal.aborted) return aborted();
    if (idle) return idleFailure();
    const end = driver.finish(state, "complete");
    if (end.type === "error") return { kind: "failed", failure: end.error, emitted };
    return { kind: "final", event: end };
  } catch (err) {
    if (signal.aborted) return aborted();
    if (idle) return idleFailure();
    return { kind: "failed", emitted, ...describeError(err, driver) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", forward);
    controller.abort();
  }
}

/** Waits `ms`; resolves false if `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
