import assert from "node:assert/strict";
import type { StreamEvent } from "../model/stream.ts";
import { textFrames } from "../../tests/fake_provider/drop_server.ts";
import { bodyText } from "./_body_text.ts";
import {
  formatBytes,
  limitFailure,
  readCapped,
  StreamGauge,
  StreamLimitError,
} from "./_stream_limits.ts";
import { collect, type Reply, serveReplies, simpleRequest, testSettings } from "./_testing.ts";
import { openProvider } from "./mod.ts";
import type { ProviderSettings, WireApi } from "./types.ts";

const KIB = 1024;
const LIMITS = { streamMaxLineBytes: 64 * KIB, streamMaxReplyBytes: 1024 * KIB };
const encoder = new TextEncoder();

/** A body of `chunk` repeated without end; `pulls()` says how many chunks were taken. */
function endless(chunk: string) {
  const bytes = encoder.encode(chunk);
  let pulls = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(bytes);
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, pulls: () => pulls, cancelled: () => cancelled };
}

/** The `StreamLimitError` reading all of `text` ends with. */
async function limitOf(text: AsyncIterable<string>): Promise<StreamLimitError> {
  let error: unknown;
  try {
    for await (const _ of text) { /* drained */ }
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof StreamLimitError, String(error));
  return error;
}

Deno.test("StreamGauge measures lines across chunks and line endings, in bytes", () => {
  const gauge = new StreamGauge({ streamMaxLineBytes: 4, streamMaxReplyBytes: 100 });
  gauge.measure(encoder.encode("ab\r\ncd"));
  gauge.measure(encoder.encode("ef\rgh\n\n1234\n"));
  gauge.measure(encoder.encode("abc"));
  // Three characters, but "é" is two bytes: five in all.
  assert.throws(() => gauge.measure(encoder.encode("é")), /line limit of 4 bytes/);
  const whole = new StreamGauge({ streamMaxLineBytes: 4, streamMaxReplyBytes: 6 });
  whole.measure(encoder.encode("a\nb\nc\n"));
  assert.throws(() => whole.measure(encoder.encode("\n")), /reply limit of 6 bytes/);
});

Deno.test("bodyText() stops reading a line without end at the bound, before holding more", async () => {
  const body = endless("x".repeat(16 * KIB));
  const error = await limitOf(bodyText(body.stream, undefined, LIMITS));
  assert.equal(error.limit, "line");
  assert.ok(body.pulls() <= 6, `read ${body.pulls()} chunks of 16 KiB`);
  assert.ok(body.cancelled());
});

Deno.test("bodyText() stops reading a reply without end at the bound", async () => {
  const body = endless("data: {}\n\n".repeat(1600));
  const error = await limitOf(bodyText(body.stream, undefined, LIMITS));
  assert.equal(error.limit, "reply");
  assert.ok(body.pulls() <= 68, `read ${body.pulls()} chunks of 16 KB`);
});

Deno.test("readCapped() reads up to the bound and says the rest was left", async () => {
  const body = endless("0123456789");
  assert.deepEqual(await readCapped(body.stream, 25), {
    text: "0123456789012345678901234",
    truncated: true,
  });
  assert.ok(body.cancelled());
  const short = new Response("short").body;
  assert.deepEqual(await readCapped(short, 25), { text: "short", truncated: false });
});

Deno.test("limitFailure() names the bound and the key that raises it, and is not retryable", () => {
  const failure = limitFailure(new StreamLimitError("line", 16 * KIB * KIB), {
    id: "ollama",
    name: "Ollama",
  });
  assert.deepEqual(failure, {
    message: "Ollama sent a stream line longer than 16 MiB, the limit set by " +
      "model_providers.ollama.stream_max_line_bytes",
    hint: "Raise model_providers.ollama.stream_max_line_bytes in config.toml if replies this " +
      "large are expected; otherwise check that base_url points at a working model server",
    retryable: false,
  });
  const dotted = limitFailure(new StreamLimitError("reply", 1000), { id: "my.box", name: "Box" });
  assert.match(dotted.message, /^Box sent a reply longer than 1000 bytes, .*"my\.box"\.stream_max/);
  assert.equal(formatBytes(64 * KIB), "64 KiB");
});

/** How one wire streams: replies before the chat, a stream start, one delta, a whole reply. */
interface WireCase {
  label: string;
  settings: Partial<ProviderSettings>;
  before: Reply[];
  head: string;
  delta: string;
  whole: string;
}

const MARK = "LOOPLOOP";

function sseCase(wire: WireApi): WireCase {
  const frames = textFrames(wire, MARK, { chunkSize: MARK.length });
  const at = frames.findIndex((frame) => frame.includes(MARK));
  return {
    label: wire,
    settings: { wireApi: wire },
    before: [],
    head: frames.slice(0, at + 1).join(""),
    delta: frames[at],
    whole: textFrames(wire, "ok").join(""),
  };
}

function ollamaCase(): WireCase {
  const line = (content: string, done = false) =>
    JSON.stringify({ message: { role: "assistant", content }, done }) + "\n";
  const show = { model_info: { "general.architecture": "x" }, capabilities: ["completion"] };
  return {
    label: "ollama /api/chat",
    settings: { id: "ollama", name: "Ollama", nativeApi: "ollama", apiKey: undefined },
    before: [{ body: JSON.stringify(show) }],
    head: line(MARK),
    delta: line(MARK),
    whole: line("ok") + line("", true),
  };
}

const CASES = [
  sseCase("chat"),
  sseCase("responses"),
  sseCase("messages"),
  sseCase("gemini"),
  ollamaCase(),
];

for (const c of CASES) {
  const run = async (chat: Reply, overrides: Partial<ProviderSettings> = {}) => {
    await using server = serveReplies([...c.before, chat]);
    const settings = testSettings(server.baseUrl, "chat", {
      ...LIMITS,
      // Without the bounds, the endless replies would run into this one instead.
      requestTimeoutMs: 10_000,
      ...c.settings,
      ...overrides,
    });
    const provider = await openProvider(settings);
    const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
    return { events, chats: server.requests.length - c.before.length };
  };
  const lastError = (events: StreamEvent[]) => {
    const last = events.at(-1);
    assert.ok(last?.type === "error", JSON.stringify(last));
    return last.error;
  };
  const id = c.settings.id ?? "test";
  const name = c.settings.name ?? "Test";

  Deno.test(`${c.label}: stream() stops a line without end at stream_max_line_bytes`, async () => {
    const { events, chats } = await run({ repeat: { part: "x".repeat(16 * KIB), everyMs: 1 } });
    const error = lastError(events);
    assert.equal(
      error.message,
      `${name} sent a stream line longer than 64 KiB, ` +
        `the limit set by model_providers.${id}.stream_max_line_bytes`,
    );
    assert.equal(error.retryable, false);
    assert.equal(chats, 1);
  });

  Deno.test(`${c.label}: stream() stops a reply without end at stream_max_reply_bytes`, async () => {
    const part = c.delta.repeat(Math.ceil(16 * KIB / c.delta.length));
    const { events, chats } = await run({ body: c.head, repeat: { part, everyMs: 1 } });
    assert.ok(events.some((e) => e.type === "text_delta"), "the reply streamed before the bound");
    const error = lastError(events);
    assert.equal(
      error.message,
      `${name} sent a reply longer than 1 MiB, ` +
        `the limit set by model_providers.${id}.stream_max_reply_bytes`,
    );
    assert.equal(error.retryable, false);
    assert.equal(chats, 1);
  });

  Deno.test(`${c.label}: stream() ends a reply without end at stream_max_reply_ms`, async () => {
    // Well under the size bound: one small delta every few ms never reaches 1 MiB in time.
    const { events, chats } = await run({ body: c.head, repeat: { part: c.delta, everyMs: 5 } }, {
      requestTimeoutMs: 400,
      streamMaxRetries: 2,
    });
    assert.ok(events.some((e) => e.type === "text_delta"), "the reply streamed before the bound");
    const error = lastError(events);
    assert.equal(
      error.message,
      `${name} did not finish the reply within 400 ms, ` +
        `the limit set by model_providers.${id}.stream_max_reply_ms`,
    );
    assert.match(
      error.hint ?? "",
      /raise model_providers\.\S+\.stream_max_reply_ms in config\.toml/,
    );
    assert.equal(error.retryable, false);
    assert.equal(chats, 1, "not retried");
  });

  Deno.test(`${c.label}: control: a normal reply finishes within a short stream_max_reply_ms`, async () => {
    const { events } = await run({ body: c.whole }, { requestTimeoutMs: 400 });
    const last = events.at(-1);
    assert.ok(last?.type === "done", JSON.stringify(last));
    assert.deepEqual(last.blocks, [{ type: "text", text: "ok" }]);
  });

  Deno.test(`${c.label}: stream() gives up on a reply that goes silent after stream_idle_timeout_ms`, async () => {
    const { events } = await run({ body: c.head, hold: true }, {
      streamIdleTimeoutMs: 300,
      streamMaxRetries: 0,
    });
    assert.equal(lastError(events).message, `${name} is not answering: no data for 300 ms`);
  });

  Deno.test(`${c.label}: stream() reads a normal reply within small bounds`, async () => {
    const { events } = await run({ body: c.whole });
    const last = events.at(-1);
    assert.ok(last?.type === "done", JSON.stringify(last));
    assert.deepEqual(last.blocks, [{ type: "text", text: "ok" }]);
  });
}
