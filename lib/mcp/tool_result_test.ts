import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { type McpContent, resultForModel, toolShape, wireSchema } from "./tool_result.ts";

Deno.test("toolShape() makes a readOnlyHint tool a read and any other one a change", () => {
  const schema = { type: "object", properties: { q: { type: "string" } } };
  assert.deepEqual(
    toolShape({
      name: "search",
      description: "Searches",
      inputSchema: schema,
      annotations: { readOnlyHint: true },
    }),
    { name: "search", description: "Searches", inputSchema: schema, kind: "read", mutates: false },
  );
  const write = toolShape({ name: "write", title: "Write a file", inputSchema: schema });
  assert.deepEqual([write.kind, write.mutates, write.description], ["other", true, "Write a file"]);
});

Deno.test("wireSchema() fixes only the top level the wires demand and keeps everything else", () => {
  assert.deepEqual(wireSchema({ type: "object" }), { type: "object", properties: {} });
  const full = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { n: { type: "integer", minimum: 1 } },
    required: ["n"],
  };
  assert.deepEqual(wireSchema(full), full);
});

Deno.test("resultForModel() keeps text, images and structured content apart, and the answer as sent", () => {
  const content = [
    { type: "text", text: "Here it is:" },
    { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
    { type: "resource", resource: { uri: "memo://1", text: "embedded text" } },
    { type: "resource", resource: { uri: "memo://2", mimeType: "application/zip" } },
    { type: "audio", data: "AAAA", mimeType: "audio/wav" },
  ] as const;
  const out = resultForModel({ content: [...content], structuredContent: { ok: true } }, "t");
  assert.deepEqual(out, {
    text: [
      "Here it is:",
      "Resource: a.txt (file:///a.txt)",
      "embedded text",
      "[resource memo://2 (application/zip)]",
      "[audio (audio/wav) left out: it cannot be shown to the model]",
      '{"ok":true}',
    ].join("\n"),
    images: [{ mime: "image/png", base64: "iVBORw0KGgo=" }],
    answer: { content, structuredContent: { ok: true } },
  });
});

Deno.test("resultForModel() does not repeat structured content a text block already holds", () => {
  const out = resultForModel({
    content: [{ type: "text", text: '{ "temperature": 21 }' }],
    structuredContent: { temperature: 21 },
  }, "t");
  assert.deepEqual(out, {
    text: '{ "temperature": 21 }',
    answer: {
      content: [{ type: "text", text: '{ "temperature": 21 }' }],
      structuredContent: { temperature: 21 },
    },
  });
});

Deno.test("resultForModel() sends structured content once however the server spelled its text", () => {
  const once = (content: McpContent[], structuredContent: Record<string, unknown>) =>
    resultForModel({ content, structuredContent }, "t").text;
  const text = (t: string) => ({ type: "text" as const, text: t });
  // Other key order and spacing.
  assert.equal(once([text('{"b": 2, "a": 1}')], { a: 1, b: 2 }), '{"b": 2, "a": 1}');
  // FastMCP wraps what is not an object as {"result": …}: a number, a list, a list's items.
  assert.equal(once([text("42")], { result: 42 }), "42");
  assert.equal(once([text("done")], { result: "done" }), "done");
  assert.equal(once([text("[1, 2]")], { result: [1, 2] }), "[1, 2]");
  assert.equal(
    once([text('{"n":1}'), text('{"n":2}')], { result: [{ n: 1 }, { n: 2 }] }),
    '{"n":1}\n{"n":2}',
  );
  // Different content still gets the structured JSON after it.
  assert.equal(once([text("see below")], { a: 1 }), 'see below\n{"a":1}');
  assert.equal(once([text("41")], { result: 42 }), '41\n{"result":42}');
});

Deno.test("resultForModel() turns an isError result into a ToolError with its text", () => {
  assert.throws(
    () =>
      resultForModel({ content: [{ type: "text", text: "no such issue" }], isError: true }, "t"),
    (e) => e instanceof ToolError && e.message === "no such issue",
  );
  assert.throws(
    () => resultForModel({ content: [], isError: true }, "lookup"),
    /The MCP tool "lookup" reported an error without a message/,
  );
});
