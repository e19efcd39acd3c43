import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ToolError } from "../lib/errors.ts";
import { renderToolError, resolveCall } from "../lib/harness/call.ts";
import { listHarnessIds, loadHarness } from "../lib/harness/load.ts";
import type { Harness } from "../lib/harness/types.ts";
import { harnessSession } from "./_harness_calls.ts";

// Calls a harness cannot run: an unknown tool, missing or unexpected arguments, arguments that
// are not JSON. Each harness answers as its vendor does (../shared/reference/request-shapes.md,
// the section named per case), or in our words where the vendor's text is unknown.

const dirs = { builtinDir: fileURLToPath(new URL("../harnesses", import.meta.url)) };

/** The text the model sees for a call that `resolveCall` rejects. */
function rejection(h: Harness, call: { name: string; args: unknown; rawArgs?: string }): string {
  try {
    resolveCall(h, call);
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return renderToolError(h, error);
  }
  assert.fail(`"${call.name}" with ${JSON.stringify(call.args)} was accepted`);
}

interface Case {
  unknown: string;
  /** A call missing one required argument, and its text. */
  missing: [name: string, args: Record<string, unknown>, text: string];
}

const CASES: Record<string, Case> = {
  // §1.5, §1.6
  "claude-code": {
    unknown: "<tool_use_error>Error: No such tool available: NoSuchTool</tool_use_error>",
    missing: [
      "Edit",
      { file_path: "a.txt", old_string: "a" },
      "<tool_use_error>InputValidationError: Edit failed due to the following issue:\n" +
      "The required parameter `new_string` is missing</tool_use_error>",
    ],
  },
  "claude-code-bare": {
    unknown: "<tool_use_error>Error: No such tool available: NoSuchTool</tool_use_error>",
    missing: [
      "Read",
      {},
      "<tool_use_error>InputValidationError: Read failed due to the following issue:\n" +
      "The required parameter `file_path` is missing</tool_use_error>",
    ],
  },
  // §6
  pi: {
    unknown: "Tool NoSuchTool not found",
    missing: [
      "edit",
      { path: "a.txt" },
      'Validation failed for tool "edit":\n  - edits: missing required argument\n\n' +
      'Received arguments:\n{\n  "path": "a.txt"\n}',
    ],
  },
  // §5: the result of opencode's `invalid` tool; the error inside it is ours.
  opencode: {
    unknown: "The arguments provided to the tool are invalid: Model tried to call unavailable " +
      "tool 'NoSuchTool'. Available tools: bash, edit, glob, grep, read, skill, task, todowrite, " +
      "webfetch, write.",
    missing: [
      "read",
      {},
      'The arguments provided to the tool are invalid: Invalid arguments for "read": missing ' +
      'required argument "filePath"',
    ],
  },
  // §8
  "kimi-cli": {
    unknown: "<system>ERROR: Tool `NoSuchTool` not found</system>",
    missing: [
      "ReadFile",
      {},
      '<system>ERROR: Error validating JSON arguments: missing required argument "path"</system>',
    ],
  },
  // §9 (unknown tool); DeepSeek TUI's argument text is unknown: ours.
  "deepseek-tui": {
    unknown: "unsupported call: NoSuchTool",
    missing: [
      "read_file",
      {},
      '<system>ERROR: Invalid arguments for "read_file": missing required argument "path"' +
      '</system>\nArguments of "read_file": required: path; all: path, start_line, max_lines, pages',
    ],
  },
  // §3.4: Codex's router; the detail after the colon is ours, not serde's.
  native: {
    unknown: "unsupported call: NoSuchTool",
    missing: [
      "exec_command",
      {},
      'failed to parse function arguments: missing required argument "cmd"',
    ],
  },
};

for (const [id, want] of Object.entries(CASES)) {
  Deno.test(`${id}: an unknown tool and a missing argument read as the vendor's`, async () => {
    await using s = await harnessSession(id, {});
    assert.deepEqual(await s.call("NoSuchTool", {}), { text: want.unknown, isError: true });
    const [name, args, text] = want.missing;
    assert.deepEqual(await s.call(name, args), { text, isError: true });
  });
}

Deno.test("claude-code lists several argument issues, each in Claude Code's sentence", async () => {
  const h = await loadHarness("claude-code", dirs);
  assert.equal(
    rejection(h, { name: "Edit", args: { file_path: "a.txt", old_str: "a" } }),
    "<tool_use_error>InputValidationError: Edit failed due to the following issues:\n" +
      "An unexpected parameter `old_str` was provided\n" +
      "The required parameter `old_string` is missing\n" +
      "The required parameter `new_string` is missing</tool_use_error>",
  );
});

Deno.test("pi names a nested argument by its own spelling (edits[0].newText)", async () => {
  const h = await loadHarness("pi", dirs);
  const text = rejection(h, { name: "edit", args: { path: "a.txt", edits: [{ oldText: "a" }] } });
  assert.match(text, /^Validation failed for tool "edit":\n {2}- edits\[0\]\.newText: /);
  assert.doesNotMatch(text, /new_string/);
});

Deno.test("kimi-cli and native word arguments that are not JSON their vendor's way", async () => {
  const kimi = await loadHarness("kimi-cli", dirs);
  assert.equal(
    rejection(kimi, { name: "ReadFile", args: undefined, rawArgs: "{oops" }),
    '<system>ERROR: Error parsing JSON arguments: the arguments are not valid JSON: "{oops"</system>',
  );
  const native = await loadHarness("native", dirs);
  assert.equal(
    rejection(native, { name: "exec_command", args: undefined, rawArgs: "{oops" }),
    'failed to parse function arguments: the arguments are not valid JSON: "{oops"',
  );
});

// Every function-calling harness, vendor text or ours: the unknown-tool text is the template
// filled in, never wrapped again, and argument problems name the wire argument.
for (const id of await listHarnessIds(dirs)) {
  const harness = await loadHarness(id, dirs);
  if (harness.protocol || harness.tools.length === 0) continue;
  const tool = harness.tools.find((t) =>
    (t.declaration.parameters.required as string[] ?? []).length
  )!;

  Deno.test(`${id}: an unknown tool gets the harness's unknown_tool_template as it stands`, () => {
    const names = harness.tools.map((t) => t.declaration.name).join(", ");
    const want = harness.unknownToolTemplate.replace("{name}", "NoSuchTool")
      .replace("{available}", names);
    assert.equal(rejection(harness, { name: "NoSuchTool", args: {} }), want);
  });

  Deno.test(`${id}: arguments of the wrong type name the wire argument`, () => {
    const required = tool.declaration.parameters.required as string[];
    const args = Object.fromEntries(required.map((name) => [name, { x: 1 }]));
    const text = rejection(harness, { name: tool.declaration.name, args });
    assert.match(text, new RegExp(required.join("|")));
    if (!harness.invalidArguments) {
      assert.ok(text.includes(`Invalid arguments for "${tool.declaration.name}": `), text);
    }
  });

  Deno.test(`${id}: arguments that are not JSON are reported, not thrown`, () => {
    const text = rejection(harness, {
      name: tool.declaration.name,
      args: undefined,
      rawArgs: "{x",
    });
    assert.match(text, /not valid JSON: "\{x"/);
  });
}
