import assert from "node:assert/strict";
import { join } from "node:path";
import {
  InputFileError,
  MAX_INPUT_FILE_BYTES,
  readInputFile,
  readInputText,
  readTextPrefix,
} from "./input_file.ts";

async function tempDir(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "oi_input_file_" });
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** A FIFO at `path`; reading it would block until something writes. */
async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(out.success, "mkfifo works");
}

function refused(what: RegExp, check: (e: InputFileError) => void = () => {}) {
  return (error: Error) => {
    assert.ok(error instanceof InputFileError, String(error));
    assert.match(error.message, what);
    assert.equal(error.exitCode, 2);
    check(error);
    return true;
  };
}

Deno.test("readInputText() reads a regular file", async () => {
  await using t = await tempDir();
  const file = join(t.dir, "a.json");
  await Deno.writeTextFile(file, '{"type": "object"}\n');
  assert.equal(await readInputText(file, { what: "schema" }), '{"type": "object"}\n');
});

Deno.test("readInputFile() refuses a FIFO, a character device and a directory by kind", async () => {
  await using t = await tempDir();
  const fifo = join(t.dir, "pipe");
  await mkfifo(fifo);
  await assert.rejects(
    readInputFile(fifo, { what: "schema" }),
    refused(/^Cannot read schema ".*pipe": it is a FIFO \(named pipe\), not a regular file$/),
  );
  await assert.rejects(
    readInputFile("/dev/zero", { what: "config file" }),
    refused(/^Cannot read config file "\/dev\/zero": it is a character device/),
  );
  await assert.rejects(readInputFile(t.dir, { what: "schema" }), refused(/it is a directory/));
});

Deno.test("readInputFile() refuses a file over the cap without reading it", async () => {
  await using t = await tempDir();
  const sparse = join(t.dir, "big.json");
  await Deno.writeTextFile(sparse, "");
  await Deno.truncate(sparse, 100 * 1024 * 1024);
  await assert.rejects(
    readInputFile(sparse, { what: "schema" }),
    refused(/^Cannot read schema ".*big\.json": it is 100 MB, over the limit of 4 MB$/, (e) => {
      assert.match(e.hint ?? "", /regular file of at most 4 MB/);
    }),
  );
  const small = join(t.dir, "small.txt");
  await Deno.writeTextFile(small, "12345678");
  await assert.rejects(
    readInputFile(small, { what: "note", maxBytes: 4 }),
    refused(/it is 8 bytes, over the limit of 4 bytes/),
  );
  assert.equal(MAX_INPUT_FILE_BYTES, 4 * 1024 * 1024);
});

Deno.test("readInputFile() marks a missing file, so a caller may accept it", async () => {
  await using t = await tempDir();
  await assert.rejects(
    readInputFile(join(t.dir, "gone.toml"), { what: "config file" }),
    refused(/^Cannot read config file ".*gone\.toml": No such file/, (e) => {
      assert.equal(e.missing, true);
    }),
  );
});

Deno.test("readTextPrefix() cuts a long file and gives '' for a FIFO or a missing file", async () => {
  await using t = await tempDir();
  const file = join(t.dir, "AGENTS.md");
  await Deno.writeTextFile(file, "abcdefgh");
  assert.equal(await readTextPrefix(file, 3), "abc");
  assert.equal(await readTextPrefix(file, 100), "abcdefgh");
  const fifo = join(t.dir, "CLAUDE.md");
  await mkfifo(fifo);
  assert.equal(await readTextPrefix(fifo, 100), "");
  assert.equal(await readTextPrefix(join(t.dir, "gone.md"), 100), "");
});
