import assert from "node:assert/strict";
import { makeStyle } from "../term/progress.ts";
import { questionLines } from "./approvals.ts";

const plain = makeStyle(false);

Deno.test("questionLines() shows a patch's escape sequences and C1 controls inert", () => {
  const patch = "*** Begin Patch\n*** Add File: a\x1b]0;t\x07.txt\n+ok\x9b2J\n*** End Patch\n";
  const lines = questionLines({
    capability: "fs.apply_patch",
    subject: JSON.stringify({ patch }),
    reason: "it writes\x1b[2J",
    unsandboxed: false,
  }, plain);
  assert.deepEqual(lines, [
    "Allow fs.apply_patch?",
    "  *** Begin Patch",
    "  *** Add File: a\\u{1b}]0;t\\u{7}.txt",
    "  +ok\\u{9b}2J",
    "  *** End Patch",
    "  why: it writes\\u{1b}[2J",
  ]);
});

Deno.test("questionLines() shows other input as JSON, escaping what JSON leaves raw", () => {
  const lines = questionLines({
    capability: "web.fetch",
    subject: JSON.stringify({ url: "https://x.test/\x1b\u202e" }),
    reason: "network",
    unsandboxed: false,
  }, plain);
  assert.deepEqual(lines.slice(1, -1), [
    "  {",
    '    "url": "https://x.test/\\u001b\\u{202e}"',
    "  }",
  ]);
});

Deno.test("questionLines() shows a command already made visible once, not twice", () => {
  const lines = questionLines({
    capability: "shell.run",
    subject: "echo \\u{1b}[2J hi",
    reason: "r",
    unsandboxed: false,
  }, plain);
  assert.equal(lines[1], "  $ echo \\u{1b}[2J hi");
});
