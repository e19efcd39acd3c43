import assert from "node:assert/strict";
import { type ReplyCut, type ReplyWatch, type ToolHook, ToolHookChain } from "./tool_hooks.ts";

const signal = new AbortController().signal;
const outcome = (n: number) => ({ status: "step_limit" as const, limit: n });

/** A watch that cuts the reply once `word` streams in, and records resets. */
function cutsAt(word: string, log: string[]): ReplyWatch {
  return {
    push: (channel, text): ReplyCut | undefined =>
      text.includes(word)
        ? { channel, keep: 0, message: `cut at ${word}`, span: word, repeats: 2 }
        : undefined,
    reset: () => log.push(`reset ${word}`),
  };
}

Deno.test("ToolHookChain.afterReply() gathers the links' notes in order; the first stop wins", async () => {
  const links: ToolHook[] = [
    { name: "a", afterReply: () => Promise.resolve({ action: "append", text: "one" }) },
    { name: "b" },
    {
      name: "c",
      afterReply: () => Promise.resolve({ action: "stop", outcome: outcome(1), reason: "c" }),
    },
    {
      name: "d",
      afterReply: (r) => Promise.resolve({ action: "append", text: r.formatError ?? "" }),
    },
    {
      name: "e",
      afterReply: () => Promise.resolve({ action: "stop", outcome: outcome(2), reason: "e" }),
    },
  ];
  const out = await new ToolHookChain(links).afterReply({ formatError: "no command" }, signal);
  assert.deepEqual(out, {
    notes: ["one", "no command"],
    stop: { outcome: outcome(1), reason: "c" },
  });
  assert.deepEqual(await new ToolHookChain([]).afterReply({}, signal), { notes: [] });
});

Deno.test("ToolHookChain.watchReply() is none without watchers; with several the first cut wins", () => {
  assert.equal(new ToolHookChain([{ name: "a" }]).watchReply(), undefined);
  const log: string[] = [];
  const chain = new ToolHookChain([
    { name: "a", watchReply: () => cutsAt("loop", log) },
    { name: "b", watchReply: () => undefined },
    { name: "c", watchReply: () => cutsAt("oop", log) },
  ]);
  const watch = chain.watchReply()!;
  assert.equal(watch.push("text", "fine"), undefined);
  assert.equal(watch.push("reasoning", "a loop")?.message, "cut at loop");
  assert.equal(watch.push("text", "oops")?.message, "cut at oop");
  watch.reset();
  assert.deepEqual(log, ["reset loop", "reset oop"]);
});
