/**
 * Issue 32 group 2: images as tool results. Real sessions against one scripted fake provider:
 * a picture viewed (`view_image`, kimi-cli's `ReadMediaFile`) or read (`Read`, `read_file`)
 * comes back as image content on every wire (Messages: an image block in the tool_result;
 * Responses: `input_image` in the function_call_output; Gemini: `inlineData` after the
 * functionResponse; Chat: a user message after the tool results), and for a model that takes
 * no images the image tools are left out and a picture reads as a one-line note.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSession } from "../lib/session/open.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import type { ScriptTurn } from "./fake_provider/script.ts";
import { requestWorkspace } from "./_request_workspace.ts";
import type { WireApi } from "../lib/providers/types.ts";

type Json = Record<string, unknown>;

/** A 1×1 PNG. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

interface Case {
  harness: string;
  wire: WireApi;
  model: string;
  /** The tool call that shows the model shot.png (in the workspace); `input` for a freeform one. */
  call: { name: string; args: Json; input?: string };
}

/**
 * One session per case, in order, against one fake provider: each makes its tool call, then
 * ends. The bodies of each case's requests.
 */
async function runCases(cases: Case[]): Promise<Json[][]> {
  const script: ScriptTurn[] = cases.flatMap((c) => [
    { reply: { tool_calls: [c.call] } },
    { reply: { text: "Seen." } },
  ]);
  await using fake = startFakeProvider(script);
  const bodies: Json[][] = [];
  for (const c of cases) {
    const before = fake.requests.length;
    await runSession(c, fake.baseUrl);
    bodies.push(fake.requests.slice(before).map((r) => r.body as Json));
  }
  assert.deepEqual(fake.failures, []);
  return bodies;
}

/** A session of `c` in a fresh workspace holding shot.png, whose path the call names. */
async function runSession(c: Case, baseUrl: string): Promise<void> {
  await using ws = await requestWorkspace({
    prefix: "oi_images_",
    files: { "README.md": "# Screenshots\n" },
    model: c.model,
    harness: c.harness,
    wire: c.wire,
    baseUrl,
  });
  await Deno.writeFile(
    join(ws.cwd, "shot.png"),
    Uint8Array.from(atob(PIXEL), (ch) => ch.charCodeAt(0)),
  );
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "read-only", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  const outcome = await session.prompt("look at the screenshot", new AbortController().signal);
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
}

const DATA_URL = `data:image/png;base64,${PIXEL}`;

/** Every value of `body` (nested), as JSON text, for a search. */
const text = (body: unknown) => JSON.stringify(body);

Deno.test("a viewed or read picture comes back as image content on every wire", async () => {
  const [messages, responses, chat, gemini, kimi, codeMode, kimiCode, qwen] = await runCases([
    {
      harness: "claude-code",
      wire: "messages",
      model: "claude-sonnet-4-5",
      call: { name: "Read", args: { file_path: "shot.png" } },
    },
    {
      harness: "native",
      wire: "responses",
      model: "gpt-5-codex",
      call: { name: "view_image", args: { path: "shot.png" } },
    },
    {
      harness: "native",
      wire: "chat",
      model: "gpt-4o",
      call: { name: "view_image", args: { path: "shot.png" } },
    },
    {
      harness: "gemini-cli",
      wire: "gemini",
      model: "gemini-2.5-pro",
      call: { name: "read_file", args: { file_path: "shot.png" } },
    },
    {
      harness: "kimi-cli",
      wire: "chat",
      model: "gpt-4o",
      call: { name: "ReadMediaFile", args: { path: "shot.png" } },
    },
    {
      harness: "native",
      wire: "responses",
      model: "gpt-6.2-sol",
      call: {
        name: "exec",
        args: {},
        input: 'const r = await tools.view_image({path: "shot.png"});\ntext(r);',
      },
    },
    {
      harness: "kimi-code",
      wire: "chat",
      model: "gpt-4o",
      call: {
        name: "ReadMediaFile",
        args: { path: "shot.png", region: { x: 0, y: 0, width: 1, height: 1 } },
      },
    },
    {
      harness: "qwen-code",
      wire: "chat",
      model: "gpt-4o",
      call: {
        name: "tool_call",
        args: {
          name: "zoom_image",
          arguments: { file_path: "shot.png", x1: 0, y1: 0, x2: 1000, y2: 1000 },
        },
      },
    },
  ]);
  // Messages: an image block inside the tool_result, after the note.
  const lastUser = (messages[1].messages as Json[]).at(-1) as { content: Json[] };
  const result = lastUser.content.find((b) => b.type === "tool_result") as { content: Json[] };
  assert.deepEqual(result.content.at(-1), {
    type: "image",
    source: { type: "base64", media_type: "image/png", data: PIXEL },
  });
  assert.match(text(result.content[0]), /\[image: shot\.png \(image\/png, 70 bytes\)\]/);
  // Responses: input_image inside the function_call_output.
  const output = (responses[1].input as Json[]).find((i) => i.type === "function_call_output");
  assert.ok(
    (output?.output as Json[]).some((p) => p.type === "input_image" && p.image_url === DATA_URL),
    text(output),
  );
  assert.ok(text(responses[0].tools).includes('"view_image"'));
  // Chat (native and kimi-cli): the tool message, then a user message with the image.
  for (const body of [chat[1], kimi[1]]) {
    const [tool, user] = (body.messages as Json[]).slice(-2);
    assert.equal(tool.role, "tool");
    assert.deepEqual(user, {
      role: "user",
      content: [{ type: "image_url", image_url: { url: DATA_URL } }],
    });
  }
  // Code mode: a nested view_image's picture goes with exec's output.
  const cell = (codeMode[1].input as Json[]).at(-1)!;
  assert.equal(cell.type, "custom_tool_call_output");
  assert.ok(
    (cell.output as Json[]).some((p) => p.type === "input_image" && p.image_url === DATA_URL),
    text(cell),
  );
  // Kimi Code's ReadMediaFile with a region: the crop, a PNG, after the tool message.
  const [regionNote, region] = (kimiCode[1].messages as Json[]).slice(-2);
  assert.match(text(regionNote.content), /region x=0 y=0 1x1 of shot\.png \(1x1\)/);
  assert.match(text(region.content), /"url":"data:image\/png;base64,iVBORw0KGgo/);
  // Qwen Code's deferred zoom_image through tool_call: a magnified PNG after the tool message.
  const [zoomNote, zoomed] = (qwen[1].messages as Json[]).slice(-2);
  assert.match(
    text(zoomNote.content),
    /zoomed region \(0,0\)-\(1000,1000\) of shot\.png: image 1x1/,
  );
  assert.match(text(zoomed.content), /"url":"data:image\/png;base64,iVBORw0KGgo/);
  assert.ok(!text(zoomed.content).includes(PIXEL), "the view, not the original");
  // Gemini: inlineData after the functionResponse, in the same user turn.
  const turn = (gemini[1].contents as { role: string; parts: Json[] }[]).at(-1)!;
  assert.equal(turn.role, "user");
  assert.ok(turn.parts[0].functionResponse, text(turn));
  assert.deepEqual(turn.parts.at(-1), { inlineData: { mimeType: "image/png", data: PIXEL } });
});

Deno.test("a model that takes no images gets no image tools, and a picture reads as a note", async () => {
  const [native, qwen] = await runCases([
    {
      harness: "native",
      wire: "chat",
      model: "deepseek-chat",
      call: { name: "view_image", args: { path: "shot.png" } },
    },
    {
      harness: "qwen-code",
      wire: "chat",
      model: "deepseek-chat",
      call: { name: "read_file", args: { file_path: "shot.png" } },
    },
  ]);
  assert.ok(!text(native[0].tools).includes("view_image"), "view_image is left out");
  assert.match(text((native[1].messages as Json[]).at(-1)), /unsupported call: view_image/);
  const last = (qwen[1].messages as Json[]).at(-1)!;
  assert.equal(last.role, "tool");
  assert.match(
    text(last.content),
    /\[shot\.png \(image\/png, 70 bytes\) is an image; the current model does not take images, so it is not shown\]/,
  );
  assert.ok(!text(qwen[1]).includes(PIXEL), "no image is sent");
});

Deno.test("/model to a model without images drops view_image; back to one with images restores it", async () => {
  await using fake = startFakeProvider([{ reply: { text: "A." } }, { reply: { text: "B." } }]);
  await using ws = await requestWorkspace({
    prefix: "oi_images_",
    files: { "README.md": "# Screenshots\n" },
    model: "gpt-4o",
    harness: "native",
    wire: "chat",
    baseUrl: fake.baseUrl,
  });
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "read-only", approval: "never" },
    { onEvent: () => {} },
    { env: ws.env },
  );
  await session.configure({ model: "deepseek-chat!" });
  await session.prompt("one", new AbortController().signal);
  await session.configure({ model: "gpt-4o!" });
  await session.prompt("two", new AbortController().signal);
  const [textOnly, vision] = fake.requests.map((r) => text((r.body as Json).tools));
  assert.ok(!textOnly.includes('"view_image"'), textOnly);
  assert.ok(vision.includes('"view_image"'), vision);
});
