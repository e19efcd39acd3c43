import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../load.ts";
import type { ProtocolResult } from "../types.ts";
import { editorArgs, findActions } from "./swe_agent.ts";

const BUILTIN = fileURLToPath(new URL("../../../harnesses/", import.meta.url));
const harness = await loadHarness("swe-agent", { builtinDir: BUILTIN });
const protocol = harness.protocol!;

const result = (text: string): ProtocolResult => ({ name: "bash", args: {}, text, isError: false });

Deno.test("findActions() reads a fenced block and each XML form, decoding entities", () => {
  const fenced = "DISCUSSION\nLook around.\n\n```bash\nls -la && echo 'a b'\n```\n";
  assert.deepEqual(findActions(fenced).map((a) => a.command), ["ls -la && echo 'a b'"]);
  const forms = [
    "<tool_invoke><name>execute_bash</name><code>cat a &amp;&amp; cat b</code></tool_invoke>",
    '<invoke name="bash"><parameter name="command">cat a &amp;&amp; cat b</parameter></invoke>',
    '<invoke name="execute_bash"><command>cat a &amp;&amp; cat b</command></invoke>',
    "<execute_bash>cat a &amp;&amp; cat b</execute_bash>",
    "<execute_bash><code>cat a &amp;&amp; cat b</code></execute_bash>",
  ];
  for (const form of forms) {
    assert.deepEqual(findActions(`I will read.\n${form}`).map((a) => a.command), [
      "cat a && cat b",
    ], form);
  }
});

Deno.test("parse() asks for the format again when a reply has no command or several", () => {
  const none = protocol.parse("I think the bug is in parse().", new Map());
  assert.equal(none.kind, "format_error");
  assert.match(
    (none as { message: string }).message,
    /^Your reply could not be used: your reply has no command in it\./,
  );
  assert.match((none as { message: string }).message, /DISCUSSION/);
  const two = protocol.parse("```\nls\n```\nand\n```\npwd\n```", new Map());
  assert.match((two as { message: string }).message, /has 2 commands in it/);
  assert.deepEqual(protocol.parse("DISCUSSION\nGo.\n```\npython3 -m pytest -q\n```", new Map()), {
    kind: "calls",
    calls: [{ name: "bash", args: { command: "python3 -m pytest -q" } }],
  });
});

Deno.test("editorArgs() reads quoted multi-line values, integer options and ranges", () => {
  const line = `str_replace_editor str_replace /r/a.py --old_str 'def f():
    return 1' --new_str "def f():\n    return \\"two\\""`;
  assert.deepEqual(editorArgs(line), {
    args: {
      command: "str_replace",
      path: "/r/a.py",
      old_str: "def f():\n    return 1",
      new_str: 'def f():\n    return "two"',
    },
  });
  assert.deepEqual(
    editorArgs(String.raw`str_replace_editor create a --file_text "x\ty" --new_str=z`),
    {
      args: { command: "create", path: "a", file_text: String.raw`x\ty`, new_str: "z" },
    },
  );
  assert.deepEqual(editorArgs("str_replace_editor view a.py --view_range 3 -1"), {
    args: { command: "view", path: "a.py", view_range: [3, -1] },
  });
  assert.deepEqual(editorArgs("str_replace_editor insert a.py --insert_line 2 --new_str x"), {
    args: { command: "insert", path: "a.py", insert_line: 2, new_str: "x" },
  });
  assert.deepEqual(editorArgs("str_replace_editor view a.py --old_str 'open"), {
    error: "cannot read the str_replace_editor command: a single quote (') is not closed",
  });
  assert.deepEqual(editorArgs("str_replace_editor view a.py extra"), {
    error: 'unexpected argument "extra" in the str_replace_editor command',
  });
  const parsed = protocol.parse("```\nstr_replace_editor view habits.py\n```", new Map());
  assert.deepEqual(parsed, {
    kind: "calls",
    calls: [{ name: "str_replace_editor", args: { command: "view", path: "habits.py" } }],
  });
});

Deno.test("submit shows the diff for review and ends only when confirmed right after", () => {
  const state = new Map<string, unknown>();
  const first = protocol.parse("DISCUSSION\nAll tests pass now.\n```\nsubmit\n```", state);
  assert.deepEqual(first, { kind: "calls", calls: [{ name: "submit", args: {} }] });
  const review = protocol.observation([result("diff --git a/x b/x\n+new")], state);
  assert.match(review as string, /look over the changes[\s\S]*\+new[\s\S]*run `submit` again/);
  assert.deepEqual(protocol.parse("```\nsubmit\n```", state), {
    kind: "finish",
    finalText: "All tests pass now.",
  });

  const again = new Map<string, unknown>();
  protocol.parse("```\nsubmit\n```", again);
  protocol.observation([result("diff")], again);
  protocol.parse("```\nrm repro.py\n```", again);
  assert.equal(
    protocol.observation([result("")], again),
    "OBSERVATION:\n",
    "another command cancels the pending confirmation",
  );
  assert.equal(protocol.parse("```\nsubmit\n```", again).kind, "calls");
});

Deno.test("observation() prefixes OBSERVATION and shortens bash line numbers", () => {
  assert.equal(
    protocol.observation([result("bash: line 3: foo: command not found")], new Map()),
    "OBSERVATION:\nbash: foo: command not found",
  );
});
