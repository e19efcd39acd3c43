import assert from "node:assert/strict";
import { join } from "node:path";
import { emptyUsage } from "../../model/message.ts";
import type { SessionConfig, SessionEvent } from "../../session/open.ts";
import { makeStyle } from "../term/style.ts";
import { plainModeWanted, PlainTranscript, ProgressLines } from "./plain.ts";

function plainTranscript(progressEveryMs?: number) {
  let written = "";
  const t = new PlainTranscript({
    write: (text) => written += text,
    style: makeStyle(false),
    spinner: true,
    hideReasoning: false,
    markdown: true,
    progressEveryMs,
  });
  return { t, out: () => written };
}

const call = { id: "c1", name: "exec_command", args: {} };

Deno.test("PlainTranscript labels who speaks, each label starting a line", () => {
  const { t, out } = plainTranscript();
  const events: SessionEvent[] = [
    { type: "model_request", index: 1 },
    { type: "thinking_delta", text: "Let me " },
    { type: "thinking_delta", text: "look." },
    { type: "text_delta", text: "I will " },
    { type: "text_delta", text: "**list** it." },
    { type: "tool_start", call, capability: "shell.run", input: { command: "ls" } },
    {
      type: "tool_end",
      call,
      capability: "shell.run",
      output: { exitCode: 0, output: "a.txt\n", durationMs: 5 },
      text: "",
      isError: false,
    },
    { type: "text_delta", text: "Done." },
  ];
  for (const event of events) t.handle(event);
  t.endLine();
  assert.equal(
    out(),
    "Thinking: Let me look.\nAgent: I will **list** it.\nCommand: ls\n" +
      "Result: exit 0 in 5 ms\n    a.txt\nAgent: Done.\n",
  );
});

Deno.test("PlainTranscript labels an answer that was not streamed, and hides reasoning", () => {
  const { t, out } = plainTranscript();
  t.setHideReasoning(true);
  t.handle({ type: "thinking_delta", text: "secret" });
  t.handle({
    type: "assistant_message",
    message: {
      role: "assistant",
      blocks: [{ type: "text", text: "Whole answer." }],
      stop: "end_turn",
      usage: emptyUsage(),
    },
  });
  assert.equal(out(), "Agent: Whole answer.\n");
});

Deno.test("PlainTranscript says a failed command's result on a labelled line", () => {
  const { t, out } = plainTranscript();
  t.handle({ type: "tool_start", call, capability: "shell.run", input: { command: "make" } });
  t.handle({
    type: "tool_end",
    call,
    capability: "shell.run",
    output: { exitCode: 2, output: "boom\n", durationMs: 1200 },
    text: "",
    isError: false,
  });
  assert.equal(out(), "Command: make\nResult: exit 2 in 1.2 s\n    boom\n");
});

Deno.test("PlainTranscript reports a long wait as whole lines, never mid-line", async () => {
  const { t, out } = plainTranscript(20);
  t.handle({ type: "model_request", index: 1 });
  await waitFor(() => out().split("\n").length > 2);
  t.handle({ type: "text_delta", text: "Hello" });
  const before = out();
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.stopSpinner();
  assert.equal(out(), before, "nothing is written after the answer started");
  const lines = before.split("\n");
  assert.equal(lines.at(-1), "Agent: Hello");
  for (const line of lines.slice(0, -1)) {
    assert.match(line, /^Working… \d+ ms: waiting for the model \(Ctrl-C stops\)$/);
  }
});

Deno.test("ProgressLines reports until stopped", async () => {
  const seen: string[] = [];
  const progress = new ProgressLines(10, (line) => seen.push(line));
  progress.start("make");
  await waitFor(() => seen.length >= 2);
  progress.stop();
  const count = seen.length;
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(seen.length, count);
  assert.match(seen[0], /^Working… \d+ ms: make \(Ctrl-C stops\)$/);
});

Deno.test("plainModeWanted: TERM=dumb, --plain, or plain = true in the config", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi-plain-" });
  try {
    const config: SessionConfig = { cwd: home, skipGitRepoCheck: true };
    const env = { OPENINTERPRETER_HOME: home, TERM: "xterm" };
    assert.equal(await plainModeWanted(config, env), false);
    assert.equal(await plainModeWanted(config, { ...env, TERM: "dumb" }), true);
    const flag = { keyPath: ["plain"], value: true, origin: "--plain" };
    assert.equal(await plainModeWanted({ ...config, overrides: [flag] }, env), true);
    await Deno.writeTextFile(join(home, "config.toml"), "plain = true\n");
    assert.equal(await plainModeWanted(config, env), true);
    await Deno.writeTextFile(join(home, "config.toml"), "plain = false\n");
    assert.equal(await plainModeWanted(config, env), false);
    await Deno.writeTextFile(join(home, "config.toml"), 'plain = "yes"\n');
    assert.equal(await plainModeWanted(config, env), false, "a bad value is the session's error");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
