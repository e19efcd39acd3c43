import assert from "node:assert/strict";
import { emptyUsage } from "../../model/message.ts";
import type { SessionEvent } from "../../session/open.ts";
import { makeStyle } from "../term/style.ts";
import { testTranscript as transcript } from "./_test_transcript.ts";

const ESC = "\x1b";

function answer(text: string): SessionEvent {
  return {
    type: "assistant_message",
    message: {
      role: "assistant",
      blocks: [{ type: "text", text }],
      stop: "end_turn",
      usage: emptyUsage(),
    },
  };
}

const MARKDOWN = "Run **this**:\n\n```sh\necho hi\n```\n\nThen `x`.";

Deno.test("Transcript renders the model's Markdown as it streams when told to", async () => {
  const { t, out } = transcript({ markdown: true });
  await t.ready();
  t.handle({ type: "model_request", index: 0 });
  for (const piece of MARKDOWN.match(/[\s\S]{1,4}/g)!) {
    t.handle({ type: "text_delta", text: piece });
  }
  t.handle(answer(MARKDOWN));
  const text = out();
  assert.ok(text.includes(`Run ${ESC}[1mthis${ESC}[22m:`), JSON.stringify(text));
  assert.ok(!text.includes("**") && !text.includes("```"), JSON.stringify(text));
  assert.ok(text.includes(`    ${ESC}[3`), "the code block, indented and highlighted");
  assert.ok(text.endsWith(`Then ${ESC}[36mx${ESC}[39m.\n`), JSON.stringify(text));
});

Deno.test("Transcript renders an answer that was not streamed, and text that came while loading", async () => {
  const whole = transcript({ markdown: true });
  await whole.t.ready();
  whole.t.handle(answer("A **b**"));
  assert.equal(whole.out(), `A ${ESC}[1mb${ESC}[22m\n`);

  const early = transcript({ markdown: true });
  early.t.handle({ type: "text_delta", text: "A **b**" });
  await early.t.ready();
  early.t.handle(answer("A **b**"));
  assert.equal(early.out(), `A ${ESC}[1mb${ESC}[22m\n`);
});

Deno.test("Transcript writes the model's text exactly as written without Markdown", () => {
  const { t, out } = transcript();
  t.handle({ type: "text_delta", text: MARKDOWN });
  t.handle(answer(MARKDOWN));
  assert.equal(out(), `${MARKDOWN}\n`);
});

const call = { id: "c1", name: "Bash", args: { command: "seq 20", description: "Count" } };

function commandEvents(output: string, description?: string): SessionEvent[] {
  const input = { command: "seq 20", ...(description ? { description } : {}) };
  return [
    { type: "tool_start", call, capability: "shell.run", input },
    {
      type: "tool_end",
      call,
      capability: "shell.run",
      output: { command: "seq 20", exitCode: 0, output, durationMs: 5 },
      text: output,
      isError: false,
    },
  ];
}

const TWENTY = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

Deno.test("Transcript shows a successful command's first and last lines", () => {
  const { t, out } = transcript({ style: makeStyle(false) });
  for (const event of commandEvents(TWENTY)) t.handle(event);
  assert.equal(
    out(),
    [
      "$ seq 20",
      "  ✓ exit 0 in 5 ms",
      "    line 1",
      "    line 2",
      "    line 3",
      "    … 14 more lines",
      "    line 18",
      "    line 19",
      "    line 20",
      "",
    ].join("\n"),
  );
  const short = transcript({ style: makeStyle(false) });
  for (const event of commandEvents("a\nb\n")) short.t.handle(event);
  assert.match(short.out(), /✓ exit 0 in 5 ms\n {4}a\n {4}b\n$/);
});

Deno.test("Transcript shows no output of a successful command with hide_command_output", () => {
  const { t, out } = transcript({ style: makeStyle(false), hideCommandOutput: true });
  for (const event of commandEvents(TWENTY)) t.handle(event);
  assert.equal(out(), "$ seq 20\n  ✓ exit 0 in 5 ms\n");
  t.setHideCommandOutput(false);
  for (const event of commandEvents(TWENTY)) t.handle(event);
  assert.match(out(), /… 14 more lines/);
});

Deno.test("Transcript shows a command's description as its title, inert", () => {
  const { t, out } = transcript({ style: makeStyle(false), hideCommandOutput: true });
  const [start] = commandEvents("", "Count to twenty\x1b]0;x\x07\nsecond line");
  t.handle(start);
  assert.equal(out(), "Count to twenty\\u{1b}]0;x\\u{7}\n$ seq 20\n");
});

Deno.test("Transcript writes what is left of an answer before a tool call's line", async () => {
  const { t, out } = transcript({ markdown: true, style: makeStyle(false) });
  await t.ready();
  t.handle({ type: "text_delta", text: "- one\n- two\n" });
  t.handle(answer("- one\n- two\n"));
  t.handle(commandEvents("", "")[0]);
  t.handle({
    type: "turn_end",
    outcome: { status: "completed", finalText: "" },
    usage: emptyUsage(),
  });
  assert.equal(out(), "  * one\n  * two\n$ seq 20\n");
});
