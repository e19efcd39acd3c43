import assert from "node:assert/strict";
import type { StreamEvent } from "../model/stream.ts";
import { serveDrops, textFrames } from "../../tests/fake_provider/drop_server.ts";
import { collect, simpleRequest, testSettings } from "./_testing.ts";
import { openProvider } from "./mod.ts";
import type { WireApi } from "./types.ts";

const WIRES: WireApi[] = ["chat", "responses", "messages"];
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
    const provider = await openProvider(testSettings(server.baseUrl, wire, { maxRetries: 2 }));
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

  Deno.test(`${wire}: stream() says the stream was interrupted and gives up after maxRetries`, async () => {
    const first = cutFrames(wire, FIRST);
    const cut = { frames: first.frames, cut: { after: first.after, how: "close" as const } };
    await using server = serveDrops([cut, cut, cut]);
    const provider = await openProvider(testSettings(server.baseUrl, wire, { maxRetries: 1 }));
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
