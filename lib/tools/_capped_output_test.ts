import assert from "node:assert/strict";
import { CappedOutput } from "./_capped_output.ts";

const KEEP = 128 * 1024;
const MB = 1_000_000;

/** Runs `script` in bash and reads its stdout into `out` chunk by chunk, as shell.run does. */
async function pipeInto(script: string, out: CappedOutput): Promise<void> {
  const child = new Deno.Command("bash", {
    args: ["-c", script],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
  assert.equal((await child.status).code, 0);
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

Deno.test("CappedOutput holds only the kept bytes of a real 100 MB output", async () => {
  const out = new CappedOutput(KEEP, KEEP);
  await pipeInto(`head -c ${100 * MB} /dev/zero | tr '\\0' x`, out);
  assert.ok(out.truncated);
  assert.ok(out.retainedBytes <= 2 * KEEP, `holds ${out.retainedBytes} bytes`);
  const text = out.text();
  assert.ok(text.includes(`[… ${100 * MB - 2 * KEEP} bytes truncated …]`));
  assert.equal(text.length, 2 * KEEP + `\n[… ${100 * MB - 2 * KEEP} bytes truncated …]\n`.length);
});

Deno.test("CappedOutput holds only the kept bytes when a command writes many small chunks", async () => {
  const out = new CappedOutput(KEEP, KEEP);
  await pipeInto('for i in $(seq 1 60000); do echo "line $i"; done', out);
  assert.ok(out.truncated);
  assert.ok(out.retainedBytes <= 2 * KEEP, `holds ${out.retainedBytes} bytes`);
  assert.ok(out.text().startsWith("line 1\nline 2\n"));
  assert.ok(out.text().endsWith("line 59999\nline 60000\n"));
});

Deno.test("CappedOutput holds no more than it was given for a short output", async () => {
  const out = new CappedOutput(KEEP, KEEP);
  await pipeInto("seq 1 1000", out);
  const expected = Array.from({ length: 1000 }, (_, i) => `${i + 1}\n`).join("");
  assert.equal(out.text(), expected);
  assert.equal(out.truncated, false);
  assert.ok(out.retainedBytes < 2 * expected.length, `holds ${out.retainedBytes} bytes`);
});

Deno.test("CappedOutput keeps head and tail across chunk boundaries", () => {
  const out = new CappedOutput(5, 4);
  for (const part of ["ab", "cde", "fgh", "ij", "k", "lmnop", "q"]) out.push(bytes(part));
  assert.equal(out.text(), "abcde\n[… 8 bytes truncated …]\nnopq");
  assert.ok(out.truncated);
});

Deno.test("CappedOutput keeps the end of a chunk longer than the tail", () => {
  const out = new CappedOutput(2, 3);
  out.push(bytes("ab"));
  out.push(bytes("0123456789"));
  assert.equal(out.text(), "ab\n[… 7 bytes truncated …]\n789");
});

Deno.test("CappedOutput returns everything when head and tail cover it", () => {
  const out = new CappedOutput(3, 3);
  for (const part of ["a", "bcd", "ef"]) out.push(bytes(part));
  assert.equal(out.text(), "abcdef");
  assert.equal(out.truncated, false);
});

Deno.test("CappedOutput does not split a UTF-8 character at the start of the tail", () => {
  const out = new CappedOutput(1, 4);
  out.push(bytes("a"));
  out.push(bytes("xxxxé€")); // é is 2 bytes, € is 3: the tail starts inside é
  assert.equal(out.text(), "a\n[… 6 bytes truncated …]\n€");
});
