/**
 * Waiting for the user under a turn's abort signal: when the turn is cancelled the wait ends at
 * once with an `AbortError`, which the loop treats as the turn being aborted, whatever the front
 * end does with the request it was given.
 */

/** A call's error when its turn was cancelled as it waited; `message` says what was not done. */
export function turnCancelled(message: string): DOMException {
  return new DOMException(message, "AbortError");
}

/**
 * `pending`'s value, unless `signal` fires first (or fired already, or fires before `pending`
 * settles with a value): then a rejection with `cancelled()`.
 */
export function unlessCancelled<T>(
  pending: Promise<T>,
  signal: AbortSignal,
  cancelled: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    // Settling after the abort changes nothing; a late rejection is not left unhandled.
    pending.then(
      (value) => (signal.aborted ? onAbort() : resolve(value)),
      (error) => reject(signal.aborted ? cancelled() : error),
    ).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
