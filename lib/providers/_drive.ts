/**
 * The stream driver every adapter shares: opens the event stream, feeds chunks to the wire's
 * reducer, and owns retries, the progress watchdog and abort. It never throws.
 */
import { emptyUsage } from "../model/message.ts";
import type { ProviderFailure, StreamEvent } from "../model/stream.ts";
import { describeError, retryDelayMs } from "./_http.ts";
import { providerKey } from "./_stream_limits.ts";
import type { ProviderSettings } from "./types.ts";

/** Default retries of a request that failed before its stream started (Codex's default). */
export const DEFAULT_REQUEST_MAX_RETRIES = 4;
/**
 * Default retries of a stream that broke after it started (Codex's default). With the default
 * idle bound a stall gives up in under ten minutes: six attempts of 90 s, and the backoff.
 */
export const DEFAULT_STREAM_MAX_RETRIES = 5;
/** Default longest wait for the next data event of a stream. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 90_000;
/** The shortest default bound of a whole request, retries included. */
const MIN_REQUEST_TIMEOUT_MS = 30 * 60_000;
/** Longer timer delays overflow and fire at once; a bound this long is no bound. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How one wire API opens a stream and turns its chunks into events. */
export interface WireDriver<S> {
  settings: ProviderSettings;
  model: string;
  /** Sends the request; resolves to the stream's data events once response headers arrive. */
  open(signal: AbortSignal): Promise<AsyncIterable<unknown>>;
  /** A fresh reducer state for one attempt. */
  init(): S;
  /** Reduces one chunk; an `error` event in the result ends the attempt. */
  step(chunk: unknown, state: S): StreamEvent[];
  /** The last event: `done` (or `error` if the stream ended early), or the aborted `done`. */
  finish(state: S, how: "complete" | "aborted"): StreamEvent;
}

/**
 * The time bounds of one request, in ms (0 disables one). `idleMs`: between data events, per
 * attempt; `firstTokenMs`: from the start of an attempt to its first delta; `totalMs`: the whole
 * request, retries and their waits included.
 */
export interface StreamBounds {
  idleMs: number;
  firstTokenMs: number;
  totalMs: number;
}

/** The bounds `settings` ask for, with the defaults filled in. */
export function streamBounds(settings: ProviderSettings): StreamBounds {
  const idleMs = settings.streamIdleTimeoutMs;
  return {
    idleMs,
    firstTokenMs: settings.firstTokenTimeoutMs ?? 2 * idleMs,
    totalMs: settings.requestTimeoutMs ?? Math.max(MIN_REQUEST_TIMEOUT_MS, 10 * idleMs),
  };
}

/**
 * How an attempt ended. `started`: the response headers had come, so the failure broke a stream
 * rather than the request; `emitted`: deltas had gone out.
 */
type Attempt =
  | { kind: "final"; event: StreamEvent }
  | {
    kind: "failed";
    failure: ProviderFailure;
    started: boolean;
    emitted: boolean;
    retryAfterMs?: number;
  };

/** The two retry budgets of one request: before a stream started, and after. */
type Budget = "request" | "stream";

/**
 * Runs `driver` with bounded retries; yields deltas, `retry` events, then one `done` or `error`.
 * A request that failed before its stream started and a stream that broke after it started are
 * retried on separate budgets (`requestMaxRetries`, `streamMaxRetries`), as in Codex; each
 * `retry` event counts against its own. A broken stream is retried even after deltas went out:
 * the `retry` event then says they are discarded, and the next attempt starts the reply over.
 */
export async function* driveStream<S>(
  driver: WireDriver<S>,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const limits: Record<Budget, number> = {
    request: driver.settings.requestMaxRetries,
    stream: driver.settings.streamMaxRetries,
  };
  const used: Record<Budget, number> = { request: 0, stream: 0 };
  const bounds = streamBounds(driver.settings);
  const deadline = bounds.totalMs > 0 ? Date.now() + bounds.totalMs : Infinity;
  for (let attempt = 1;; attempt++) {
    const result = yield* attemptOnce(driver, signal, { ...bounds, deadline });
    if (result.kind === "final") {
      yield result.event;
      return;
    }
    const { failure, emitted } = result;
    const budget: Budget = result.started ? "stream" : "request";
    const retry = used[budget] + 1;
    const delayMs = retryDelayMs(retry, { serverDelayMs: result.retryAfterMs });
    if (!failure.retryable || retry > limits[budget] || Date.now() + delayMs >= deadline) {
      const gaveUp = failure.retryable && attempt > 1;
      const message = gaveUp
        ? `${failure.message} (gave up after ${attempt} attempts)`
        : failure.message;
      yield { type: "error", error: { ...failure, message } };
      return;
    }
    used[budget] = retry;
    const reason = failure.message;
    const maxRetries = limits[budget];
    yield { type: "retry", attempt: retry, maxRetries, delayMs, reason, discarded: emitted };
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
  bounds: StreamBounds & { deadline: number },
): AsyncGenerator<StreamEvent, Attempt> {
  const state = driver.init();
  const aborted = (): Attempt => ({ kind: "final", event: driver.finish(state, "aborted") });
  if (signal.aborted) return aborted();
  const controller = new AbortController();
  const forward = () => controller.abort();
  signal.addEventListener("abort", forward, { once: true });
  using watch = new Watchdog(forward);
  let started = false;
  let emitted = false;
  const failed = (failure: ProviderFailure, retryAfterMs?: number): Attempt => ({
    kind: "failed",
    failure,
    started,
    emitted,
    retryAfterMs,
  });
  const stalled = (stall: Stall) => failed(stallFailure(stall, bounds, driver.settings));
  try {
    watch.arm("idle", bounds.idleMs);
    watch.arm("first_token", bounds.firstTokenMs);
    watch.arm("total", Math.max(1, bounds.deadline - Date.now()));
    const chunks = await driver.open(controller.signal);
    started = true;
    watch.arm("idle", bounds.idleMs);
    for await (const chunk of chunks) {
      watch.arm("idle", bounds.idleMs);
      for (const event of driver.step(chunk, state)) {
        if (event.type === "error") return failed(event.error);
        watch.clear("first_token");
        emitted = true;
        yield event;
      }
    }
    if (signal.aborted) return aborted();
    if (watch.fired) return stalled(watch.fired);
    const end = driver.finish(state, "complete");
    if (end.type === "error") return failed(end.error);
    return { kind: "final", event: end };
  } catch (err) {
    if (signal.aborted) return aborted();
    if (watch.fired) return stalled(watch.fired);
    const { failure, retryAfterMs } = describeError(err, driver);
    return failed(failure, retryAfterMs);
  } finally {
    signal.removeEventListener("abort", forward);
    controller.abort();
  }
}

/** Which bound of `StreamBounds` an attempt ran into. */
type Stall = "idle" | "first_token" | "total";

/** What running into a bound means; only the idle and first-token bounds are worth a retry. */
function stallFailure(
  stall: Stall,
  bounds: StreamBounds,
  settings: Pick<ProviderSettings, "id" | "name">,
): ProviderFailure {
  const { name } = settings;
  const hint = "Try again later, or raise stream_idle_timeout_ms for slow models";
  switch (stall) {
    case "idle":
      return {
        message: `${name} is not answering: no data for ${duration(bounds.idleMs)}`,
        hint,
        retryable: true,
      };
    case "first_token":
      return {
        message: `${name} is not answering: no output within ${duration(bounds.firstTokenMs)}`,
        hint,
        retryable: true,
      };
    case "total": {
      // Also what ends a reply that streams without end before it reaches its size bound.
      const key = providerKey(settings.id, "stream_max_reply_ms");
      return {
        message: `${name} did not finish the reply within ${duration(bounds.totalMs)}, ` +
          `the limit set by ${key}`,
        hint: `Try again or ask for a shorter reply; raise ${key} in config.toml if replies ` +
          "this long are expected",
        retryable: false,
      };
    }
  }
}

/** Timers that abort an attempt when one of its bounds passes; `fired` names the first. */
class Watchdog implements Disposable {
  fired: Stall | undefined;
  #timers = new Map<Stall, ReturnType<typeof setTimeout>>();
  #onFire: () => void;

  constructor(onFire: () => void) {
    this.#onFire = onFire;
  }

  /** (Re)starts the timer for `stall`; `ms` of 0 or less, or past a timer's range, leaves it off. */
  arm(stall: Stall, ms: number): void {
    this.clear(stall);
    if (!(ms > 0 && ms <= MAX_TIMER_MS) || this.fired) return;
    this.#timers.set(
      stall,
      setTimeout(() => {
        this.fired ??= stall;
        this.#onFire();
      }, ms),
    );
  }

  clear(stall: Stall): void {
    clearTimeout(this.#timers.get(stall));
    this.#timers.delete(stall);
  }

  [Symbol.dispose](): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}

/** `ms` for a message: "250 ms", "90 s", "5 min". */
function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Math.round(ms / 1000)} s`;
  return `${ms / 60_000} min`;
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
