import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness, loadHarnessDir } from "../lib/harness/load.ts";
import { BASE_SPEC, writeHarness } from "../lib/harness/_test_harness.ts";
import { type DispatchResult, dispatchToolCall } from "../lib/loop/dispatch.ts";
import { tempWorkspace } from "../lib/tools/_test_workspace.ts";

// A failed command reads as a failure in every harness, as its vendor reports it: the
// "Shell-failure signal" column of ../shared/reference/request-shapes.md §0 and each harness's
// shell results. Chat and Responses have no error field, so there isError only marks our events.

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

/** Runs `command` through the harness's shell tool: resolveCall, shell.run and its rendering. */
async function runShell(harnessId: string, command: string): Promise<DispatchResult> {
  const harness = await loadHarness(harnessId, { builtinDir: HARNESSES });
  const tool = harness.tools.find((t) => t.capability === "shell.run");
  assert.ok(tool, `${harnessId} has a shell.run tool`);
  const arg = Object.entries(tool.args).find(([, to]) => to === "command")?.[0];
  assert.ok(arg, `${harnessId} maps a wire argument to command`);
  await using ws = await tempWorkspace();
  const call = { id: "c1", name: tool.declaration.name, args: { [arg]: command } };
  const result = await dispatchToolCall(call, {
    harness,
    ctx: ws.ctx,
    emit: () => {},
  });
  return {
    text: result.text.replace(/Wall time: [\d.]+/, "Wall time: T")
      .replace(/^Chunk ID: [0-9a-f]{6}\n/, "Chunk ID: C\n"),
    isError: result.isError,
  };
}

const FALSE = "false";
const EXIT3 = "sh -c 'echo oops >&2; exit 3'";

/** Per harness: the text of `false`, of EXIT3, and whether a failure is flagged. */
const CASES: Record<string, { false: string; exit3: string; flagged: boolean }> = {
  "claude-code": { false: "Exit code 1", exit3: "Exit code 3\noops\n", flagged: true },
  "claude-code-bare": { false: "Exit code 1", exit3: "Exit code 3\noops\n", flagged: true },
  zcode: { false: "Exit code 1", exit3: "Exit code 3\noops\n", flagged: true },
  "qwen-code": {
    false: "Command: false\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1\n" +
      "Signal: (none)\nProcess Group PGID: (none)",
    exit3: `Command: ${EXIT3}\nDirectory: (root)\nOutput: oops\n\nError: (none)\nExit Code: 3\n` +
      "Signal: (none)\nProcess Group PGID: (none)",
    flagged: true,
  },
  "kimi-cli": {
    false: "<system>ERROR: Command failed with exit code: 1.</system>\n",
    exit3: "<system>ERROR: Command failed with exit code: 3.</system>\noops\n",
    flagged: true,
  },
  "kimi-code": {
    false: "<system>ERROR: Command failed with exit code: 1.</system>",
    exit3: "oops\n\n<system>ERROR: Command failed with exit code: 3.</system>",
    flagged: true,
  },
  // The vendor's exit text and flag are unknown (request-shapes.md §5): today's raw output.
  opencode: { false: "(no output)", exit3: "oops\n", flagged: false },
  pi: {
    false: "(no output)\n\nCommand exited with code 1",
    exit3: "oops\n\n\nCommand exited with code 3",
    flagged: true,
  },
  "deepseek-tui": {
    false: "Command failed (exit code: Some(1))\n\nSTDOUT:\n\n\nSTDERR:",
    exit3: "Command failed (exit code: Some(3))\n\nSTDOUT:\n\n\nSTDERR:\noops\n",
    flagged: true,
  },
  native: {
    false: "Chunk ID: C\nWall time: T seconds\nProcess exited with code 1\n" +
      "Original token count: 0\nOutput:\n",
    exit3: "Chunk ID: C\nWall time: T seconds\nProcess exited with code 3\n" +
      "Original token count: 2\nOutput:\noops\n",
    flagged: true,
  },
  minimal: {
    false: "Exit code: 1\nWall time: T seconds\nOutput:",
    exit3: "Exit code: 3\nWall time: T seconds\nOutput:\noops\n",
    flagged: true,
  },
};

for (const [id, want] of Object.entries(CASES)) {
  Deno.test(`${id}: a failed command gives the vendor's text${want.flagged ? " and is an error" : ""}`, async () => {
    assert.deepEqual(await runShell(id, FALSE), { text: want.false, isError: want.flagged });
    assert.deepEqual(await runShell(id, EXIT3), { text: want.exit3, isError: want.flagged });
    assert.doesNotMatch(want.false, /completed with no output|executed successfully/);
  });

  Deno.test(`${id}: a successful command is not an error`, async () => {
    const ok = await runShell(id, "echo hi");
    assert.equal(ok.isError, false);
    assert.match(ok.text, /hi\n/);
    assert.doesNotMatch(ok.text, /fail|ERROR|Exit code [1-9]/);
  });
}

Deno.test("claude-code: an empty successful command still reads as completed with no output", async () => {
  assert.deepEqual(await runShell("claude-code", "true"), {
    text: "(Bash completed with no output)",
    isError: false,
  });
});

Deno.test("a typo in error_if or failed_template is a load error naming the key and the name", async () => {
  const root = await Deno.makeTempDir({ prefix: "oi_failed_result_" });
  try {
    const cases: [string, RegExp][] = [
      ['error_if = ["exit_cod"]', /result\.error_if.*"exit_cod"/],
      ['error_if = ["exit_code"], failed_template = "{exit_cod}"', /failed_template.*\{exit_cod\}/],
    ];
    for (const [keys, message] of cases) {
      const spec = BASE_SPEC.replace('empty_output = "(no output)" }', `${keys} }`);
      assert.notEqual(spec, BASE_SPEC);
      const dir = await writeHarness(root, "t", spec);
      await assert.rejects(loadHarnessDir(dir), message);
    }
    const good = BASE_SPEC.replace(
      'empty_output = "(no output)" }',
      'empty_output = "(no output)", error_if = ["exit_code"], failed_template = "failed {exit_code}" }',
    );
    const harness = await loadHarnessDir(await writeHarness(root, "t", good));
    assert.deepEqual(harness.tools[0].result.errorIf, ["exit_code"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
