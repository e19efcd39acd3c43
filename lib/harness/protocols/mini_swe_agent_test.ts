import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../load.ts";
import type { ProtocolResult } from "../types.ts";
import { observationJson } from "./mini_swe_agent.ts";

const BUILTIN = fileURLToPath(new URL("../../../harnesses/", import.meta.url));
const protocol = (await loadHarness("mini-swe-agent", { builtinDir: BUILTIN })).protocol!;

function shell(output: string, extra: Record<string, unknown> = {}): ProtocolResult {
  return {
    name: "bash",
    args: {},
    text: output,
    isError: false,
    output: { command: "x", exitCode: 0, output, timedOut: false, timeoutMs: 30000, ...extra },
  };
}

Deno.test("parse() takes exactly one bash block and explains the format otherwise", () => {
  assert.deepEqual(protocol.parse("Look.\n```bash\nls -la\n```", new Map()), {
    kind: "calls",
    calls: [{ name: "bash", args: { command: "ls -la" } }],
  });
  assert.deepEqual(protocol.parse("```mswea_bash_command\npwd\n```", new Map()), {
    kind: "calls",
    calls: [{ name: "bash", args: { command: "pwd" } }],
  });
  const none = protocol.parse("```python\nprint(1)\n```", new Map());
  assert.equal(none.kind, "format_error");
  assert.match((none as { message: string }).message, /no bash code block[\s\S]*COMPLETE_TASK/);
  const two = protocol.parse("```bash\nls\n```\n```bash\npwd\n```", new Map());
  assert.match((two as { message: string }).message, /has 2 bash code blocks/);
});

Deno.test("observation() is mini-swe-agent's <returncode> and <output>, or head and tail", () => {
  assert.equal(
    protocol.observation([shell("a <b> & 'c'\n", { exitCode: 1 })], new Map()),
    "<returncode>1</returncode>\n<output>\na <b> & 'c'\n</output>",
  );
  const text = "h".repeat(5000) + "m".repeat(2000) + "t".repeat(5000);
  const longText = protocol.observation([shell(text)], new Map()) as string;
  assert.match(longText, /^<returncode>0<\/returncode>\n<warning>\n[^<]+<\/warning>\n/);
  assert.ok(longText.includes(`<output_head>\n${"h".repeat(5000)}\n</output_head>`));
  assert.ok(longText.includes("<elided_chars>\n2000 characters elided\n</elided_chars>"));
  assert.ok(longText.endsWith(`<output_tail>\n${"t".repeat(5000)}\n</output_tail>`));
  const stopped = protocol.observation(
    [shell("partial\n", { exitCode: null, timedOut: true, command: "sleep 99" })],
    new Map(),
  );
  assert.match(
    stopped as string,
    /^The command <command>sleep 99<\/command> [^\n]+\n<output>\npartial\n/,
  );
});

Deno.test("observationJson() is the tool-call form: escaped pretty JSON", () => {
  assert.equal(
    observationJson(shell("a <b> & 'c'\n", { exitCode: 1 })),
    '{\n  "returncode": 1,\n  "output": "a \\u003cb\\u003e \\u0026 \\u0027c\\u0027\\n"\n}',
  );
  const long = JSON.parse(observationJson(shell("x".repeat(12_000))));
  assert.equal(long.output_head.length, 5000);
  assert.equal(long.output_tail.length, 5000);
  assert.equal(long.elided_chars, 2000);
  assert.equal(long.warning, "Output too long.");
  const slow = JSON.parse(
    observationJson(shell("", { exitCode: null, timedOut: true, command: "sleep 99" })),
  );
  assert.equal(slow.returncode, -1);
  assert.match(slow.exception_info, /Command 'sleep 99' timed out after 30 seconds/);
});

Deno.test("observation() finishes on the sentinel with what followed it, else the prose", () => {
  const state = new Map<string, unknown>();
  protocol.parse(
    "All done, tests pass.\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
    state,
  );
  assert.deepEqual(
    protocol.observation([shell("\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\nFixed it.\n")], state),
    { kind: "finish", finalText: "Fixed it." },
  );
  assert.deepEqual(
    protocol.observation([shell("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n")], state),
    { kind: "finish", finalText: "All done, tests pass." },
  );
  const notFirst = protocol.observation(
    [shell("x\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n")],
    state,
  );
  assert.equal(typeof notFirst, "string", "the sentinel counts only on the first line");
});
