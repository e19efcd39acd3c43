import assert from "node:assert/strict";
import { UUID_PATTERN, uuidV7, uuidV7Time } from "./uuid.ts";

Deno.test("uuidV7() encodes the time, version 7 and the RFC variant", () => {
  const time = Date.UTC(2025, 0, 2, 3, 4, 5, 678);
  const id = uuidV7(time, new Uint8Array(10).fill(0xff));
  assert.match(id, new RegExp(`^${UUID_PATTERN.source}$`));
  assert.equal(id[14], "7");
  assert.equal(id[19], "b");
  assert.equal(
    id.slice(0, 13),
    `${time.toString(16).padStart(12, "0").slice(0, 8)}-${
      time.toString(16).padStart(12, "0").slice(8)
    }`,
  );
  assert.equal(uuidV7Time(id)?.getTime(), time);
});

Deno.test("uuidV7() ids sort by creation time and differ within one millisecond", () => {
  const ids = [1, 2, 1000, 2 ** 40].map((t) => uuidV7(t));
  assert.deepEqual([...ids].sort(), ids);
  assert.notEqual(uuidV7(5), uuidV7(5));
});

Deno.test("uuidV7() refuses a time outside 48 bits and uuidV7Time() a non-v7 id", () => {
  assert.throws(() => uuidV7(-1), RangeError);
  assert.throws(() => uuidV7(2 ** 48), RangeError);
  assert.equal(uuidV7Time("0190a3b2-7c4d-4e5f-8a6b-7c8d9e0f1a2b"), undefined);
  assert.equal(uuidV7Time("not-an-id"), undefined);
});
