import assert from "node:assert/strict";
import { UsageError } from "../../errors.ts";
import { promptBlocks, promptText } from "./prompt_blocks.ts";

Deno.test("promptBlocks() takes text, images, links and embedded files as the OI fork does", () => {
  assert.deepEqual(
    promptBlocks([
      { type: "text", text: "look at" },
      { type: "image", mimeType: "image/png", data: "iVBO" },
      { type: "resource_link", name: "a.py", uri: "file:///repo/a.py" },
      { type: "resource", resource: { uri: "file:///repo/b.py", text: "x = 1" } },
      {
        type: "resource",
        resource: { uri: "file:///repo/c.png", mimeType: "image/png", blob: "AA" },
      },
      { type: "resource", resource: { uri: "file:///repo/d.bin", blob: "AA" } },
    ]),
    [
      { type: "text", text: "look at" },
      { type: "image", mime: "image/png", base64: "iVBO" },
      { type: "text", text: "[a.py](file:///repo/a.py)" },
      { type: "text", text: '<context ref="file:///repo/b.py">\nx = 1\n</context>' },
      { type: "image", mime: "image/png", base64: "AA" },
      {
        type: "text",
        text: '<context ref="file:///repo/d.bin">(binary content, not shown)</context>',
      },
    ],
  );
});

Deno.test("promptBlocks() refuses audio, which the agent does not advertise", () => {
  assert.throws(
    () => promptBlocks([{ type: "audio", mimeType: "audio/wav", data: "AA" }]),
    (e: unknown) => e instanceof UsageError && /audio/.test(e.message),
  );
});

Deno.test("promptText() joins the text blocks, where a slash command is read", () => {
  assert.equal(
    promptText([
      { type: "text", text: "/review" },
      { type: "resource_link", name: "a", uri: "file:///a" },
      { type: "text", text: "the parser" },
    ]),
    "/review\nthe parser",
  );
});
