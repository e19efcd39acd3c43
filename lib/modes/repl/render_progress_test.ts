import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import { testTranscript } from "./_test_transcript.ts";
import { until } from "../../../tests/e2e/_poll.ts";

const call = { id: "c1", name: "exec_command", args: {} };

/** A transcript with a spinner, `columns` wide; `out()` is everything it wrote. */
function spinning(columns = 40) {
  return testTranscript({ style: makeStyle(false), spinner: true, columns: () => columns });
}

/** The last spinner frame drawn: from its erase to the cursor's return to its line. */
function lastFrame(text: string): string {
  return text.slice(text.lastIndexOf("\r\x1b[J"));
}

Deno.test("Transcript shows the last lines of a running command under its spinner", async () => {
  const { t, out } = spinning();
  t.handle({ type: "tool_start", call, capability: "shell.run", input: { command: "make" } });
  const text = "step 1\nstep 2\nstep 3\nstep 4 " + "x".repeat(60) + "\n10%\r50%";
  t.handle({ type: "tool_progress", callId: "c1", stream: "stdout", text });
  await until("the 50% frame", () => lastFrame(out()).includes("50%"));
  t.stopSpinner();
  const frame = lastFrame(out().slice(0, out().lastIndexOf("\r\x1b[J")));
  const [spinner, ...below] = frame.slice(0, -"\x1b[3A\r".length).split("\n");
  assert.match(spinner, /exec_command \(\d+s · Esc to stop\)$/);
  assert.deepEqual(below, [
    "  step 3",
    `  step 4 ${"x".repeat(27)}…`,
    "  50%",
  ], "three lines, cut to the width, a carriage return starting its line over");
  assert.ok(frame.endsWith("\x1b[3A\r"), "the cursor goes back to the spinner's line");
});

Deno.test("Transcript shows a running command's escape sequences inert under the spinner", async () => {
  const { t, out } = spinning(100);
  t.handle({ type: "tool_start", call, capability: "shell.run", input: { command: "cat" } });
  t.handle({
    type: "tool_progress",
    callId: "c1",
    stream: "stdout",
    text: "\x1b]52;c;ZXZpbA==\x07\x1b[2Jgone\n",
  });
  await until("the word gone", () => out().includes("gone"));
  t.stopSpinner();
  assert.ok(out().includes("\\u{1b}]52;c;ZXZpbA==\\u{7}\\u{1b}[2Jgone"), out());
  const ours = out().replaceAll("\r\x1b[J", "").replaceAll("\x1b[1A\r", "");
  const controls = [...ours].filter((ch) => {
    const code = ch.charCodeAt(0);
    return (code < 0x20 && ch !== "\n") || (code >= 0x7f && code <= 0x9f);
  });
  assert.deepEqual(controls, [], "no control character of the command's");
});

Deno.test("Transcript shows progress only for the running call, and erases it when it ends", async () => {
  const { t, out } = spinning();
  t.handle({ type: "tool_start", call, capability: "shell.run", input: { command: "make" } });
  t.handle({ type: "tool_progress", callId: "other", stream: "stdout", text: "not mine\n" });
  t.handle({ type: "tool_progress", callId: "c1", stream: "stdout", text: "mine\n" });
  await until("the word mine", () => out().includes("mine"));
  assert.ok(!out().includes("not mine"));
  t.handle({
    type: "tool_end",
    call,
    capability: "shell.run",
    output: { exitCode: 0, output: "mine\n", durationMs: 5 },
    text: "",
    isError: false,
  });
  // From the output drawn under the spinner; the successful command's output is shown again.
  const after = out().slice(out().indexOf("  mine"));
  assert.ok(after.includes("\r\x1b[J"), "the lines under the spinner are erased");
  assert.match(after, /✓ exit 0 in 5 ms\n {4}mine\n$/);
});
