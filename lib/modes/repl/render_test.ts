import assert from "node:assert/strict";
import { emptyUsage } from "../../model/message.ts";
import type { SessionEvent } from "../../session/open.ts";
import { testTranscript as transcript } from "./_test_transcript.ts";

const OUR_STYLING = ["\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m"];

/** The control characters but newline left after removing the styling makeStyle(true) adds. */
function controlsLeft(text: string): string[] {
  const rest = OUR_STYLING.reduce((t, code) => t.replaceAll(code, ""), text);
  return [...rest].filter((ch) => {
    const code = ch.charCodeAt(0);
    return (code < 0x20 && ch !== "\n") || (code >= 0x7f && code <= 0x9f);
  });
}

const call = { id: "c1", name: "exec_command", args: {} };

Deno.test("Transcript shows a command's escape sequences inert, in its own colors", () => {
  const { t, out } = transcript();
  const output = "log\n\x1b]52;c;cm0=\x07\x1b[2J\x1b[5A\x1b[32mall tests passed\x1b[0m\r\n";
  const events: SessionEvent[] = [
    { type: "tool_start", call, capability: "shell.run", input: { command: "cat e\x1b[2Jvil" } },
    {
      type: "tool_end",
      call,
      capability: "shell.run",
      output: { exitCode: 1, output, durationMs: 5 },
      text: "",
      isError: false,
    },
  ];
  for (const event of events) t.handle(event);
  const text = out();
  assert.ok(text.includes("\x1b[1m$\x1b[0m cat e\\u{1b}[2Jvil\n"), text);
  assert.ok(text.includes("\x1b[31m✗ exit 1\x1b[0m"), "our own colors still reach the terminal");
  assert.match(text, / {4}\\u\{1b\}\]52;c;cm0=\\u\{7\}\\u\{1b\}\[2J\\u\{1b\}\[5A\\u\{1b\}\[32mall/);
  assert.match(text, /passed\\u\{1b\}\[0m\n/, "a Windows line end is a plain newline");
  assert.deepEqual(controlsLeft(text), []);
});

Deno.test("Transcript shows an escape sequence split across text deltas inert", () => {
  const { t, out } = transcript();
  for (const text of ["Done.\x1b", "]52;c;ZXZpbA==", "\x07 \x9b", "2J ok"]) {
    t.handle({ type: "text_delta", text });
  }
  t.handle({ type: "thinking_delta", text: "hmm\x1b]0;title\x07" });
  assert.equal(
    out(),
    "Done.\\u{1b}]52;c;ZXZpbA==\\u{7} \\u{9b}2J ok\n\x1b[2mhmm\\u{1b}]0;title\\u{7}\x1b[0m",
  );
});

Deno.test("Transcript shows a model name and a failure's message inert", () => {
  const { t, out } = transcript();
  t.handle({ type: "model_switched", model: "evil\x1b]0;x\x07", provider: "ollama" });
  t.handle({
    type: "turn_end",
    outcome: { status: "failed", error: { message: "bad\x1b[2J", retryable: false } },
    usage: emptyUsage(),
  });
  assert.equal(
    out(),
    "\x1b[2mmodel: ollama/evil\\u{1b}]0;x\\u{7}\x1b[0m\n\x1b[31merror: bad\\u{1b}[2J\x1b[0m\n",
  );
});
