import assert from "node:assert/strict";
import {
  capImages,
  capResourceParts,
  capText,
  DEFAULT_MCP_OUTPUT_BYTES,
} from "./mcp_output_caps.ts";

Deno.test("capText() keeps a text within the cap whole, else its head and tail with a note", () => {
  assert.equal(capText("short", 1024), "short");
  const exact = "é".repeat(512);
  assert.equal(capText(exact, 1024), exact, "1024 bytes of two-byte letters fit");
  const long = `${"h".repeat(600)}${"m".repeat(10_000)}${"t".repeat(600)}`;
  assert.equal(
    capText(long, 1024),
    `${"h".repeat(512)}\n[… 10176 bytes truncated …]\n${"t".repeat(512)}`,
  );
  const big = "x".repeat(5 * 1024 * 1024);
  const kept = capText(big, DEFAULT_MCP_OUTPUT_BYTES);
  assert.ok(kept.length < DEFAULT_MCP_OUTPUT_BYTES + 64);
  assert.match(
    kept,
    new RegExp(`\\[… ${big.length - DEFAULT_MCP_OUTPUT_BYTES} bytes truncated …\\]`),
  );
});

Deno.test("capText() never splits a character at the cut", () => {
  const text = "€".repeat(1000);
  const kept = capText(text, 1000);
  assert.ok(!kept.includes("\uFFFD"), "no broken character");
  assert.match(kept, /^€+\n\[… \d+ bytes truncated …\]\n€+$/);
});

Deno.test("capImages() keeps images in order up to the cap and names the rest", () => {
  const image = (bytes: number) => ({ mime: "image/png", base64: btoa("p".repeat(bytes)) });
  const { images, notes } = capImages([image(600), image(600), image(300)], 1000);
  assert.deepEqual(images.map((i) => atob(i.base64).length), [600, 300]);
  assert.deepEqual(notes, [
    "[image (image/png, 600 bytes) left out: the images of one result may hold 1000 bytes together]",
  ]);
  assert.deepEqual(capImages([image(10)], 10).notes, []);
});

Deno.test("capResourceParts() shares the cap between parts; a binary part past it becomes a note", () => {
  const parts = [
    { uri: "a", text: "a".repeat(800) },
    { uri: "b", text: "b".repeat(800) },
    { uri: "c", mimeType: "image/png", blob: btoa("c".repeat(900)) },
    { uri: "d", text: "d" },
  ];
  const [a, b, c, d] = capResourceParts(parts, 1024);
  assert.equal(a, parts[0], "the first part fits whole");
  assert.match(b.text!, /^b{112}\n\[… 576 bytes truncated …\]\nb{112}$/);
  assert.deepEqual(c, {
    uri: "c",
    mimeType: "image/png",
    text: "[binary content (image/png, 900 bytes) left out: one resource read may hold 1KB]",
  });
  assert.equal(d.text, "\n[… 1 bytes truncated …]\n");
  assert.deepEqual(capResourceParts(parts.slice(3), 1024), parts.slice(3), "small reads whole");
});
