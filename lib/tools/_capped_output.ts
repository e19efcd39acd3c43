/** Bytes of output kept from the start and, separately, from the end of a long output. */
export const OUTPUT_KEEP_BYTES = 128 * 1024;

/** Size of the head buffer at first; it doubles as output arrives, up to `headBytes`. */
const FIRST_HEAD_BYTES = 4096;

/**
 * Collects process output bytes, keeping at most `headBytes` from the start and `tailBytes`
 * from the end; the middle is dropped and replaced by a marker when the text is read.
 *
 * Bytes are copied out of each chunk as it arrives, never kept by reference: a pipe chunk is a
 * view on a 64 KiB read buffer, so holding small chunks would hold a whole buffer each. The head
 * grows with the output up to its cap; the tail is a ring of `tailBytes`, made once the head is
 * full. Memory held is at most `headBytes + tailBytes`, whatever the output's size.
 */
export class CappedOutput {
  readonly #headBytes: number;
  readonly #tailBytes: number;
  #head = new Uint8Array(0);
  #headLen = 0;
  #ring: Uint8Array | undefined;
  /** Index in the ring of the oldest kept tail byte. */
  #ringStart = 0;
  #ringLen = 0;
  #total = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.#headBytes = headBytes;
    this.#tailBytes = tailBytes;
  }

  /** Appends a chunk; the caller may reuse it afterwards. */
  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    const room = this.#headBytes - this.#headLen;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.#growHead(this.#headLen + part.length);
      this.#head.set(part, this.#headLen);
      this.#headLen += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length > 0 && this.#tailBytes > 0) this.#pushTail(chunk);
  }

  /** Bytes of buffer memory this collector holds. */
  get retainedBytes(): number {
    return this.#head.byteLength + (this.#ring?.byteLength ?? 0);
  }

  /** Whether any bytes were dropped. */
  get truncated(): boolean {
    return this.#total > this.#headLen + this.#ringLen;
  }

  /** The kept text, decoded as UTF-8, with a marker where bytes were dropped. */
  text(): string {
    const head = this.#head.subarray(0, this.#headLen);
    const tail = this.#tail();
    const dropped = this.#total - head.length - tail.length;
    if (dropped === 0) return new TextDecoder().decode(concat(head, tail));
    let start = 0;
    while (start < tail.length && (tail[start] & 0xc0) === 0x80) start++;
    const headText = new TextDecoder().decode(head, { stream: true });
    const tailText = new TextDecoder().decode(tail.subarray(start));
    return `${headText}\n[… ${dropped + start} bytes truncated …]\n${tailText}`;
  }

  #growHead(needed: number): void {
    if (needed <= this.#head.length) return;
    let size = Math.max(this.#head.length, FIRST_HEAD_BYTES);
    while (size < needed) size *= 2;
    const head = new Uint8Array(Math.min(size, this.#headBytes));
    head.set(this.#head.subarray(0, this.#headLen));
    this.#head = head;
  }

  #pushTail(chunk: Uint8Array): void {
    const cap = this.#tailBytes;
    const ring = this.#ring ??= new Uint8Array(cap);
    if (chunk.length >= cap) {
      ring.set(chunk.subarray(chunk.length - cap));
      this.#ringStart = 0;
      this.#ringLen = cap;
      return;
    }
    const end = (this.#ringStart + this.#ringLen) % cap;
    const first = Math.min(chunk.length, cap - end);
    ring.set(chunk.subarray(0, first), end);
    ring.set(chunk.subarray(first), 0);
    const overflow = this.#ringLen + chunk.length - cap;
    if (overflow > 0) {
      this.#ringStart = (this.#ringStart + overflow) % cap;
      this.#ringLen = cap;
    } else {
      this.#ringLen += chunk.length;
    }
  }

  /** The kept tail bytes in order. */
  #tail(): Uint8Array {
    const ring = this.#ring;
    if (!ring || this.#ringLen === 0) return new Uint8Array(0);
    const end = this.#ringStart + this.#ringLen;
    if (end <= ring.length) return ring.subarray(this.#ringStart, end);
    return concat(ring.subarray(this.#ringStart), ring.subarray(0, end - ring.length));
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
