/** Waiting on a promise in tests, with a deadline (polling is tests/e2e/_poll.ts's until()). */

/** `pending`, or a rejection when it has not settled within five seconds. */
export async function promptly<T>(pending: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("still pending after 5 s")), 5000);
  });
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}
