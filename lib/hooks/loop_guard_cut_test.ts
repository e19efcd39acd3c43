import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runTestTurn } from "../../tests/_run_turn.ts";
import { loadHarness } from "../harness/load.ts";
import type { LoopEvent } from "../loop/events.ts";
import { type Block, emptyUsage, type ModelRequest, textOf } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import { freshState } from "../loop/_test_loop.ts";
import type { LoopGuardLimits } from "./loop_guard.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const SENTENCE = "I should check the file once more before I answer. ";
const RUNAWAY = "Let me look at the code. " + SENTENCE.repeat(2000);

/** A streamed reply: its text and reasoning, sent in pieces of 8 characters. */
interface Streamed {
  text?: string;
  reasoning?: string;
}

/**
 * A provider that streams each scripted reply piece by piece, counting the pieces it was asked
 * for and whether the stream was closed before its end.
 */
function streamingProvider(replies: Array<Streamed | Block[]>) {
  const requests: ModelRequest[] = [];
  const served = { pieces: 0, closedEarly: 0 };
  const provider: Provider = {
    settings: {} as ProviderSettings,
    async *stream(request): AsyncGenerator<StreamEvent> {
      requests.push(structuredClone(request));
      const next = replies.shift();
      if (!next) throw new Error("script exhausted");
      if (Array.isArray(next)) {
        return yield { type: "done", blocks: next, stop: "end_turn", usage: emptyUsage() };
      }
      let finished = false;
      try {
        for (
          const [type, text] of [["thinking_delta", next.reasoning], ["text_delta", next.text]]
        ) {
          for (let i = 0; i < (text ?? "").length; i += 8) {
            served.pieces++;
            yield { type: type as "text_delta", text: text!.slice(i, i + 8) };
          }
        }
        const blocks: Block[] = [
          ...(next.reasoning ? [{ type: "thinking" as const, text: next.reasoning }] : []),
          ...(next.text ? [{ type: "text" as const, text: next.text }] : []),
        ];
        finished = true;
        yield { type: "done", blocks, stop: "end_turn", usage: emptyUsage() };
      } finally {
        if (!finished) served.closedEarly++;
      }
    },
  };
  return { provider, requests, served };
}

async function run(replies: Array<Streamed | Block[]>, limits: Partial<LoopGuardLimits> = {}) {
  const cwd = await Deno.makeTempDir({ prefix: "oi_cut_" });
  try {
    const harness = await loadHarness("native", { builtinDir: HARNESSES });
    const { provider, requests, served } = streamingProvider(replies);
    const state = freshState();
    const events: LoopEvent[] = [];
    const outcome = await runTestTurn(state, {
      provider,
      harness,
      cwd,
      loopGuard: limits,
      emit: (e) => events.push(e),
    });
    return { outcome, requests, served, state, events };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

const done: Block[] = [{ type: "text", text: "finished" }];

Deno.test("a reply repeating one sentence is cut off as it streams, and the model is told why", async () => {
  const { outcome, requests, served, state, events } = await run([{ text: RUNAWAY }, done]);
  assert.deepEqual(outcome, { status: "completed", finalText: "finished" });
  const total = Math.ceil(RUNAWAY.length / 8);
  assert.ok(served.pieces < 300, `the stream stopped early: ${served.pieces} of ${total} pieces`);
  assert.equal(served.closedEarly, 1, "the provider's stream was closed");
  const kept = state.messages[1];
  assert.equal(kept.role, "assistant");
  assert.equal(textOf(kept.blocks).trim(), "Let me look at the code. " + SENTENCE.trim());
  const told = requests[1].messages.at(-1)!;
  assert.equal(told.role, "user");
  assert.match(
    textOf(told.blocks),
    /^Warning: your previous message was cut off because it repeated the same text \d\d times/,
  );
  const cut = events.find((e) => e.type === "reply_cut");
  assert.deepEqual(cut && { ...cut, repeats: 0 }, {
    type: "reply_cut",
    channel: "text",
    span: SENTENCE,
    repeats: 0,
  });
});

Deno.test("reasoning that repeats itself is cut off the same way, the text kept", async () => {
  const { outcome, served, state } = await run([{ reasoning: RUNAWAY }, done]);
  assert.equal(outcome.status, "completed");
  assert.equal(served.closedEarly, 1);
  const kept = state.messages[1];
  assert.equal(kept.role, "assistant");
  const thinking = kept.blocks.find((b) => b.type === "thinking");
  assert.ok(thinking && thinking.text.length < 2 * SENTENCE.length + 30, thinking?.text);
});

Deno.test("a second cut-off in the turn stops it as repeated_call, naming the span", async () => {
  const { outcome, requests } = await run([{ text: RUNAWAY }, { text: RUNAWAY }, done]);
  assert.equal(requests.length, 2);
  assert.equal(outcome.status, "repeated_call");
  if (outcome.status !== "repeated_call") return;
  assert.deepEqual(outcome.call, {
    shape: "repeated_span",
    name: "text",
    args: undefined,
    error: SENTENCE.trim(),
    repeats: 2,
  });
});

Deno.test("repeated_span_repeats = 0 lets a repeating reply stream to its end", async () => {
  const { outcome, served } = await run([{ text: RUNAWAY }], { repeatedSpanRepeats: 0 });
  assert.equal(outcome.status, "completed");
  assert.equal(served.closedEarly, 0);
  assert.equal(served.pieces, Math.ceil(RUNAWAY.length / 8));
});
