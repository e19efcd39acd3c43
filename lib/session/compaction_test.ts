import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { loadHarness, loadHarnessDir } from "../harness/load.ts";
import { BASE_FILES, BASE_SPEC, writeHarness } from "../harness/_test_harness.ts";
import type { Harness } from "../harness/types.ts";
import { emptyUsage, type Message, systemText, textOf } from "../model/message.ts";
import { openProvider } from "../providers/mod.ts";
import { testSettings } from "../providers/_testing.ts";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { compactHistory, compactLimit, contextTokens, loadTokenizer } from "./compaction.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));

Deno.test("contextTokens() counts with the project's tokenizer when no usage was reported", async () => {
  const blocks = [{ type: "text" as const, text: "refactor the parser module, keeping its tests" }];
  const state = {
    model: "m",
    system: systemText("You are a coding agent."),
    messages: [{ role: "user" as const, blocks }],
    usage: emptyUsage(),
  };
  await loadTokenizer(state, 1);
  assert.equal(
    contextTokens(state),
    countTokens(JSON.stringify(blocks)) + countTokens("You are a coding agent."),
  );
});

Deno.test("contextTokens() starts from the provider's reported usage of the last reply", async () => {
  await loadTokenizer({ model: "m", system: [], messages: [], usage: emptyUsage() }, 0);
  const later = [{ type: "text" as const, text: "and one more thing" }];
  const state = {
    model: "m",
    system: systemText("s"),
    messages: [
      { role: "user" as const, blocks: [{ type: "text" as const, text: "x".repeat(10_000) }] },
      {
        role: "assistant" as const,
        blocks: [{ type: "text" as const, text: "ok" }],
        stop: "end_turn" as const,
        usage: { ...emptyUsage(), inputTokens: 1200, outputTokens: 30 },
      },
      { role: "user" as const, blocks: later },
    ],
    usage: emptyUsage(),
  };
  assert.equal(contextTokens(state), 1230 + countTokens(JSON.stringify(later)));
  assert.equal(compactLimit(100_000, undefined), 85_000);
  assert.equal(compactLimit(100_000, 5_000), 5_000);
});

/** Compacts a short history with `harness`'s texts; returns the request's last message text. */
async function compactWith(harness: Harness) {
  await using fake = startFakeProvider([{ reply: { text: "SUMMARY-1" } }]);
  const provider = await openProvider(testSettings(fake.baseUrl, "chat"));
  const text = (t: string) => [{ type: "text" as const, text: t }];
  const state = {
    model: "m",
    system: systemText("s"),
    messages: [
      { role: "user", blocks: text("fix the parser") },
      { role: "assistant", blocks: text("on it"), stop: "end_turn" },
      { role: "user", blocks: text("and the tests") },
    ] as Message[],
    usage: emptyUsage(),
  };
  const history = await compactHistory(
    state,
    provider,
    new AbortController().signal,
    harness.texts,
  );
  assert.deepEqual(fake.failures, []);
  const messages = (fake.requests[0].body as { messages: { content: unknown }[] }).messages;
  return {
    asked: JSON.stringify(messages.at(-1)?.content),
    history: history.map((m) => textOf(m.blocks)),
  };
}

Deno.test("compaction asks and summarizes in the harness's own words, else the shared ones", async () => {
  const root = await Deno.makeTempDir({ prefix: "oi-compact-" });
  try {
    const spec = `${BASE_SPEC}\n[prompts]\ncompaction = "c.md"\ncompaction_summary = "s.md"\n`;
    const files = { ...BASE_FILES, "c.md": "Write hand-off notes.", "s.md": "Notes:\n{summary}" };
    const own = await compactWith(await loadHarnessDir(await writeHarness(root, "t", spec, files)));
    assert.equal(own.asked, JSON.stringify("Write hand-off notes."));
    assert.deepEqual(own.history, ["Notes:\nSUMMARY-1", "and the tests"]);

    const shared = await compactWith(await loadHarness("native", { builtinDir: BUILTIN }));
    assert.match(shared.asked, /^"The conversation is about to be shortened/);
    assert.deepEqual(shared.history, ["Summary of the work so far:\n\nSUMMARY-1", "and the tests"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
