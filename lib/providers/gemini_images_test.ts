import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import { simpleRequest } from "./_testing.ts";
import { toWire } from "./gemini.ts";

const PNG = { type: "image" as const, mime: "image/png", base64: "iVBORw0KGgo=" };

/** A call to view a picture and its result: a note, then the picture. */
const MESSAGES: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "look" }] },
  {
    role: "assistant",
    blocks: [{ type: "tool_call", id: "c1", name: "read_file", args: { file_path: "a.png" } }],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "c1",
    name: "read_file",
    blocks: [{ type: "text", text: "[image: a.png]" }, PNG],
    isError: false,
  },
];

const lastTurn = (model: string) =>
  (toWire(simpleRequest({ model, messages: MESSAGES }), { compat: {} }).contents as {
    parts: unknown[];
  }[]).at(-1);

Deno.test("gemini: a result's image follows its functionResponse, inside it for Gemini 3", () => {
  const response = { id: "c1", name: "read_file", response: { output: "[image: a.png]" } };
  const inline = { inlineData: { mimeType: "image/png", data: PNG.base64 } };
  assert.deepEqual(lastTurn("gemini-2.5-pro"), {
    role: "user",
    parts: [{ functionResponse: response }, inline],
  });
  assert.deepEqual(lastTurn("gemini-3-pro-preview"), {
    role: "user",
    parts: [{ functionResponse: { ...response, parts: [inline] } }],
  });
});
