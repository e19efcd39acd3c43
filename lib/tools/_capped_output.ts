/**
 * Collects process output bytes, keeping at most `headBytes` from the start and `tailBytes`
 * from the end; the middle is dropped and replaced by a marker when the text is read.
 */
export class CappedOutput {
  readonly #headBytes: number;
  readonly #tailBytes: number;
  #head: Uint8Array[] = [];
  #headLen = 0;
  #tail: Uint8Array[] = [];
  #tailLen = 0;
  #total = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.#headBytes = headBytes;
    this.#tailBytes = tailBytes;
  }

  /** Appends a chunk. */
  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    const room = this.#headBytes - this.#headLen;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.#head.push(part);
      this.#headLen += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailLen += chunk.length;
    while (this.#tailLen - this.#tail[0].length >= this.#tailBytes) {
      this.#tailLen -= this.#tail.shift()!.length;
    }
  }

  /** Whether any bytes were dropped. */
  get truncated(): boolean {
    return this.#total > this.#headLen + Math.min(this.#tailLen, this.#tailBytes);
  }

  /** The kept text, decoded as UTF-8, with a marker where bytes were dropped. */
  text(): string {
    const head = concat(this.#head);
    let tail = concat(this.#tail);
    if (tail.length > this.#tailBytes) tail = tail.subarray(tail.length - this.#tailBytes);
    const dropped = this.#total - head.length - tail.length;
    if (dropped === 0) return new TextDecoder().decode(concat([head, tail]));
    let start = 0;
    while (start < tail.length && (tail[start] & 0xc0) === 0x80) start++;
    const headText = new TextDecoder().decode(head, { stream: true });
    const tailText = new TextDecoder().decode(tail.subarray(start));
    return `${headText}\n[… ${dropped + start} bytes truncated …]\n${tailText}`;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
