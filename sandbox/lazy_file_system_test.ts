import assert from "node:assert/strict";
import { inProcessFs } from "./file_system.ts";
import { lazyFileSystem } from "./lazy_file_system.ts";

function counting() {
  const calls = { starts: 0, disposed: 0 };
  const fs = lazyFileSystem(() => {
    calls.starts++;
    return Promise.resolve({
      ...inProcessFs,
      [Symbol.asyncDispose]: () => {
        calls.disposed++;
        return Promise.resolve();
      },
    });
  });
  return { fs, calls };
}

Deno.test("lazyFileSystem() starts its backend once, on first use", async () => {
  const dir = await Deno.makeTempDir();
  await using _dir = { [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
  const { fs, calls } = counting();
  assert.equal(calls.starts, 0);
  await fs.writeFileAtomic(`${dir}/a.txt`, new TextEncoder().encode("hi"));
  assert.equal(new TextDecoder().decode(await fs.readFile(`${dir}/a.txt`)), "hi");
  assert.equal(calls.starts, 1);
  await fs[Symbol.asyncDispose]();
  assert.equal(calls.disposed, 1);
});

Deno.test("lazyFileSystem() never starts a backend it did not need", async () => {
  const { fs, calls } = counting();
  await fs[Symbol.asyncDispose]();
  assert.deepEqual(calls, { starts: 0, disposed: 0 });
});
