import assert from "node:assert/strict";
import { emptyUsage } from "../../model/message.ts";
import { progressLines, sessionLines } from "./progress.ts";
import { makeStyle } from "./style.ts";
import { headAndTail } from "./text_window.ts";

const plain = makeStyle(false);
const call = { id: "c1", name: "exec_command", args: {} };

Deno.test("progressLines() shows a command, its exit code and the tail of its output", () => {
  const start = progressLines(
    { type: "tool_start", call, capability: "shell.run", input: { command: "make test" } },
    plain,
  );
  assert.deepEqual(start, ["exec make test"]);
  const output = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
  const end = progressLines({
    type: "tool_end",
    call,
    capability: "shell.run",
    output: { exitCode: 2, output, durationMs: 1530 },
    text: "",
    isError: false,
  }, plain);
  assert.equal(end[0], "exited 2 in 1.5 s");
  assert.equal(end[1], "  … 8 earlier lines");
  assert.equal(end.at(-1), "  line 20");
});

Deno.test("progressLines() shows each patched file with its diff", () => {
  const lines = progressLines({
    type: "tool_end",
    call,
    capability: "fs.apply_patch",
    output: { changes: [{ path: "a.py", kind: "update", diff: "-old\n+new\n" }] },
    text: "",
    isError: false,
  }, plain);
  assert.deepEqual(lines, ["update a.py", "-old", "+new"]);
});

Deno.test("progressLines() prints interim model text but not the final answer", () => {
  const message = (withCall: boolean) => ({
    role: "assistant" as const,
    blocks: [
      { type: "text" as const, text: "Looking at the code." },
      ...(withCall ? [{ type: "tool_call" as const, id: "c", name: "x", args: {} }] : []),
    ],
    stop: "end_turn" as const,
    usage: emptyUsage(),
  });
  assert.deepEqual(progressLines({ type: "assistant_message", message: message(true) }, plain), [
    "Looking at the code.",
  ]);
  assert.deepEqual(
    progressLines({ type: "assistant_message", message: message(false) }, plain),
    [],
  );
});

Deno.test("progressLines() reports tool errors in red when color is on", () => {
  const lines = progressLines(
    { type: "tool_end", call, text: "unsupported call: x", isError: true },
    makeStyle(true),
  );
  assert.equal(lines[0], "\x1b[31mexec_command failed:\x1b[0m");
  assert.equal(lines[1], "  unsupported call: x");
});

Deno.test("progressLines() shows a command's escape sequences inert, in its own colors", () => {
  const output = "\x1b]52;c;cm0=\x07\x1b[5A\x1b[32mall tests passed\r\n\u202eexe.txt";
  const lines = progressLines({
    type: "tool_end",
    call,
    capability: "shell.run",
    output: { exitCode: 0, output, durationMs: 5 },
    text: "",
    isError: false,
  }, makeStyle(true));
  assert.deepEqual(lines, [
    "\x1b[32mexited 0\x1b[0m \x1b[2min 5 ms\x1b[0m",
    "  \\u{1b}]52;c;cm0=\\u{7}\\u{1b}[5A\\u{1b}[32mall tests passed",
    "  \\u{202e}exe.txt",
  ]);
});

Deno.test("sessionLines() shows a model name and a warning from a server inert", () => {
  const info = {
    cwd: "/w",
    model: "evil\x1b]0;title\x07",
    provider: "ollama",
    wireApi: "ollama /api/chat",
    harness: "native",
    sandbox: "sandbox: read-only",
  };
  assert.match(
    sessionLines({ type: "session_started", info }, plain).join("\n"),
    /^model: evil\\u\{1b\}\]0;title\\u\{7\}$/m,
  );
  assert.deepEqual(sessionLines({ type: "warning", message: "a\x9b2Jb" }, plain), [
    "warning: a\\u{9b}2Jb",
  ]);
});

Deno.test("sessionLines() prints no running output on stderr: the end shows it once", () => {
  const event = {
    type: "tool_progress",
    callId: "c1",
    stream: "stdout",
    text: "building\n",
  } as const;
  assert.deepEqual(sessionLines(event, plain), []);
  const nested = { type: "subagent", parentCallId: "p1", label: "x", event } as const;
  assert.deepEqual(sessionLines(nested, plain), []);
});

Deno.test("progressLines() shows a command's description as its title, as the REPL does", () => {
  const input = { command: "python3 -m pytest -q", description: "Run the tests\nin detail" };
  assert.deepEqual(
    progressLines({ type: "tool_start", call, capability: "shell.run", input }, plain),
    ["Run the tests", "exec python3 -m pytest -q"],
  );
});

Deno.test("headAndTail() keeps the first and last lines and says how many it left out", () => {
  const text = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}`).join("\n") + "\n";
  assert.deepEqual(headAndTail(text(6), 6), ["1", "2", "3", "4", "5", "6"]);
  assert.deepEqual(headAndTail(text(7), 6), ["1", "2", "3", "… 1 more line", "5", "6", "7"]);
  assert.deepEqual(headAndTail(text(20), 6), ["1", "2", "3", "… 14 more lines", "18", "19", "20"]);
  assert.deepEqual(headAndTail("", 6), []);
});
