import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { emptyUsage, systemText } from "../model/message.ts";
import { compactLimit, contextTokens, loadTokenizer } from "./compaction.ts";

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
