/** UUID version 7 (RFC 9562): 48 bits of Unix time in ms, then random bits; sorts by time. */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** A UUID v7 string for the time `now` (ms since the epoch), random bits from `random` (10 bytes). */
export function uuidV7(
  now: number = Date.now(),
  random: Uint8Array = crypto.getRandomValues(new Uint8Array(10)),
): string {
  if (!Number.isSafeInteger(now) || now < 0 || now >= 2 ** 48) {
    throw new RangeError(`Cannot make a UUID v7 for time ${now}: expected 0 <= ms < 2^48`);
  }
  if (random.length < 10) throw new RangeError("A UUID v7 needs 10 random bytes");
  const bytes = new Uint8Array(16);
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (random[0] & 0x0f);
  bytes[7] = random[1];
  bytes[8] = 0x80 | (random[2] & 0x3f);
  bytes.set(random.subarray(3, 10), 9);
  const hex = Array.from(bytes, (b) => HEX[b]).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}

/** Matches a UUID in its usual lower-case, hyphenated form. */
export const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * Whether `id` is a session id as the store makes them (a UUID, lower case, hyphenated): what a
 * client may name a session by. Anything else, a file path above all, is no id.
 */
export function isSessionId(id: string): boolean {
  return new RegExp(`^${UUID_PATTERN.source}$`).test(id);
}

/** The creation time encoded in a UUID v7, or undefined when `id` is not one. */
export function uuidV7Time(id: string): Date | undefined {
  if (!new RegExp(`^${UUID_PATTERN.source}$`).test(id) || id[14] !== "7") return undefined;
  return new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
}
