import assert from "node:assert/strict";
import type { StreamEvent } from "../model/stream.ts";
import { type DropReply, serveDrops, textFrames } from "../../tests/fake_provider/drop_server.ts";
import { DEFAULT_REQUEST_MAX_RETRIES, DEFAULT_STREAM_MAX_RETRIES } from "./_drive.ts";
import { collect, simpleRequest, testSettings } from "./_testing.ts";
import { openProvider } from "./mod.ts";
import type { ProviderSettings, WireApi } from "./types.ts";

const WIRES: WireApi[] = ["chat", "responses", "messages", "gemini"];
const FIRST = "The first reply, which the connection reset cuts short";
const SECOND = "The whole second reply.";

/** The frames of `text` on `wire`, ending before the reply is complete. */
function cutFrames(wire: WireApi, text: string) {
  const frames = textFrames(wire, text);
  return { frames, after: frames.length - 4 };
}

for (const wire of WIRES) {
  Deno.test(`${wire}: stream() retries a reply cut off by a reset and yields the second reply once`, async () => {
    const first = cutFrames(wire, FIRST);
    await using server = serveDrops([
      { frames: first.frames, cut: { after: first.after, how: "reset" } },
      { frames: textFrames(wire, SECOND) },
    ]);
    const provider = await openProvider(
      testSettings(server.baseUrl, wire, { streamMaxRetries: 2 }),
    );
    const events: StreamEvent[] = [];
    for await (const event of provider.stream(simpleRequest(), new AbortController().signal)) {
      events.push(event);
      if (event.type === "text_delta") server.release();
    }
    const at = events.findIndex((e) => e.type === "retry");
    const retry = events[at];
    assert.ok(retry?.type === "retry", JSON.stringify(events));
    assert.equal(retry.attempt, 1);
    assert.equal(retry.maxRetries, 2);
    assert.equal(retry.discarded, true);
    assert.match(retry.reason, /^The stream from Test was interrupted: /);
    const textOf = (list: StreamEvent[]) =>
      list.map((e) => e.type === "text_delta" ? e.text : "").join("");
    assert.ok(textOf(events.slice(0, at)).length > 0, "the first reply streamed some text");
    assert.ok(FIRST.startsWith(textOf(events.slice(0, at))));
    assert.equal(textOf(events.slice(at + 1)), SECOND);
    const last = events.at(-1);
    assert.ok(last?.type === "done", JSON.stringify(last));
    assert.deepEqual(last.blocks, [{ type: "text", text: SECOND }]);
    assert.equal(last.stop, "end_turn");
    assert.equal(server.requests(), 2);
  });

  Deno.test(`${wire}: stream() says the stream was interrupted and gives up after streamMaxRetries`, async () => {
    const first = cutFrames(wire, FIRST);
    const cut = { frames: first.frames, cut: { after: first.after, how: "close" as const } };
    await using server = serveDrops([cut, cut, cut]);
    const provider = await openProvider(
      testSettings(server.baseUrl, wire, { streamMaxRetries: 1 }),
    );
    const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
    const retries = events.filter((e) => e.type === "retry");
    assert.equal(retries.length, 1);
    const last = events.at(-1);
    assert.ok(last?.type === "error", JSON.stringify(last));
    assert.match(
      last.error.message,
      /^The stream from Test was interrupted: the connection was closed or reset before the reply was complete \(gave up after 2 attempts\)$/,
    );
    assert.doesNotMatch(`${last.error.message} ${last.error.hint}`, /Cannot reach|network/);
    assert.match(last.error.hint ?? "", /provider or a proxy/);
    assert.equal(server.requests(), 2);
  });
}

/** The frames of `text` as Ollama's `/api/chat` streams it: one NDJSON line per piece. */
function ollamaFrames(text: string): string[] {
  const pieces = text.match(/.{1,8}/g) ?? [];
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  return [
    ...pieces.map((content) => line({ message: { role: "assistant", content }, done: false })),
    line({ message: { role: "assistant", content: "" }, done: true, done_reason: "stop" }),
  ];
}

const FAULT_WIRES: { label: string; wire: WireApi; ollama?: boolean }[] = [
  ...WIRES.map((wire) => ({ label: wire, wire })),
  { label: "ollama /api/chat", wire: "chat", ollama: true },
];

for (const { label, wire, ollama } of FAULT_WIRES) {
  Deno.test(`${label}: stream() finishes after a 429, a 500 and a reset midway, one budget each`, async () => {
    const frames = (text: string) => ollama ? ollamaFrames(text) : textFrames(wire, text);
    const first = frames(FIRST);
    const replies: DropReply[] = [
      { status: 429 },
      { status: 500 },
      { frames: first, cut: { after: first.length - 4, how: "reset" } },
      { frames: frames(SECOND) },
    ];
    // Ollama's adapter asks /api/show first; a 404 there means "not installed", which it skips.
    await using server = serveDrops(ollama ? [{ status: 404 }, ...replies] : replies);
    const settings: Partial<ProviderSettings> = {
      requestMaxRetries: DEFAULT_REQUEST_MAX_RETRIES,
      streamMaxRetries: DEFAULT_STREAM_MAX_RETRIES,
      ...(ollama ? { nativeApi: "ollama" } : {}),
    };
    const provider = await openProvider(testSettings(server.baseUrl, wire, settings));
    const events: StreamEvent[] = [];
    for await (const event of provider.stream(simpleRequest(), new AbortController().signal)) {
      events.push(event);
      if (event.type === "text_delta") server.release();
    }
    const retries = events.flatMap((e) => e.type === "retry" ? [[e.attempt, e.maxRetries]] : []);
    assert.deepEqual(retries, [[1, 4], [2, 4], [1, 5]], JSON.stringify(events));
    const last = events.at(-1);
    assert.ok(last?.type === "done", JSON.stringify(last));
    assert.deepEqual(last.blocks, [{ type: "text", text: SECOND }]);
    assert.equal(server.requests(), replies.length + (ollama ? 1 : 0));
  });
}
