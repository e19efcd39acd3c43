import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { MAX_IMAGE_BYTES, readImages } from "./exec_images.ts";
import { answerJson, readOutputSchema } from "../../session/structured_output.ts";

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];

async function tempDir(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "oi_exec_inputs_" });
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("readOutputSchema() fails with Codex's messages, naming the file", async () => {
  await using t = await tempDir();
  const missing = join(t.dir, "missing.json");
  await assert.rejects(
    readOutputSchema(missing),
    (e: Error) =>
      e instanceof UserError &&
      e.message.startsWith(`Failed to read output schema file "${missing}"`),
  );
  const bad = join(t.dir, "bad.json");
  await Deno.writeTextFile(bad, "{type: object}");
  await assert.rejects(
    readOutputSchema(bad),
    new RegExp(`Output schema file "${bad}" is not valid JSON`),
  );
  await Deno.writeTextFile(bad, '{"type": "nope"}');
  await assert.rejects(readOutputSchema(bad), /is not a valid JSON Schema: schema is invalid/);
  await Deno.writeTextFile(bad, "[1]");
  await assert.rejects(readOutputSchema(bad), /does not hold a JSON object/);
});

Deno.test("readOutputSchema() checks an answer and says what does not match", async () => {
  await using t = await tempDir();
  const file = join(t.dir, "schema.json");
  const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
  await Deno.writeTextFile(file, JSON.stringify(schema));
  const loaded = await readOutputSchema(file);
  assert.deepEqual(loaded.wire, { name: "codex_output_schema", schema, strict: true });
  assert.equal(loaded.problem('{"n": 3}'), undefined);
  assert.equal(loaded.problem('{"n": "3"}'), "answer/n must be integer");
  assert.match(loaded.problem("three") ?? "", /^the answer is not JSON/);
  assert.equal(answerJson('```json\n{"n": 3}\n```\n'), '{"n": 3}');
});

Deno.test("readImages() reads images by content and refuses the rest, naming the file", async () => {
  await using t = await tempDir();
  const png = join(t.dir, "a.png");
  await Deno.writeFile(png, Uint8Array.from(PNG_HEAD));
  const [block] = await readImages([png]);
  assert.deepEqual(block, { type: "image", mime: "image/png", base64: "iVBORw0KGgoAAAAN" });
  const text = join(t.dir, "notes.png");
  await Deno.writeTextFile(text, "not a picture");
  await assert.rejects(readImages([text]), new RegExp(`Cannot attach "${text}": it is not a PNG`));
  const missing = join(t.dir, "gone.png");
  await assert.rejects(readImages([missing]), new RegExp(`Cannot read image "${missing}"`));
  const big = join(t.dir, "big.png");
  await Deno.writeFile(big, Uint8Array.from(PNG_HEAD));
  await Deno.truncate(big, MAX_IMAGE_BYTES + 1);
  await assert.rejects(readImages([big]), /is 20.0 MB, over the limit of 20 MB/);
});
