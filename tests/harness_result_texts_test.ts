import assert from "node:assert/strict";
import { HarnessError } from "../lib/errors.ts";
import { loadHarnessDir } from "../lib/harness/load.ts";
import {
  BASE_FILES,
  BASE_SPEC,
  loadTestHarness,
  writeHarness,
} from "../lib/harness/_test_harness.ts";
import { harnessSession } from "./_harness_calls.ts";

// Command results as each vendor sends them (../shared/reference/request-shapes.md, section per
// test), through the real shell; and the load-time check of the texts' placeholders.

/** 12,000 characters of output: 6,000 lines of "x". */
const LONG = "yes x | head -n 6000";

Deno.test("native exec_command carries Codex's header: chunk id, wall time, exit, token count (§3.4)", async () => {
  await using s = await harnessSession("native", {});
  const { text, isError } = await s.call("exec_command", {
    cmd: "printf 'hello world\\n'; exit 4",
  });
  assert.equal(isError, true);
  assert.match(
    text,
    /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 4\nOriginal token count: 3\nOutput:\nhello world\n$/,
  );
});

Deno.test("deepseek-tui compacts exec_shell output past 900 characters (§9)", async () => {
  await using s = await harnessSession("deepseek-tui", {});
  const { text } = await s.call("exec_shell", { command: LONG });
  const lines = text.split("\n");
  assert.equal(lines[0], "[exec_shell output compacted to protect context]");
  assert.deepEqual(lines.slice(1, 4), ["Summary: x", "x", "x"]);
  assert.ok(text.includes("\n\n[... output truncated for context ...]\n\n"));
  assert.ok(text.endsWith("\n(Original: 12000 chars, omitted: 11142 chars.)"));
  assert.equal((await s.call("exec_shell", { command: "echo short" })).text, "short\n");
});

Deno.test("kimi-code reads blank command output as an empty tool output (§7)", async () => {
  await using s = await harnessSession("kimi-code", {});
  assert.deepEqual(await s.call("Bash", { command: "true" }), {
    text: "<system>Tool output is empty.</system>",
    isError: false,
  });
});

Deno.test("mini-swe-agent shows long output as its head and tail, unescaped (§11, text form)", async () => {
  await using s = await harnessSession("mini-swe-agent", {});
  const command = `${LONG}; echo '<&>'`;
  const result = await s.dispatch("bash", { command });
  const observation = s.harness.protocol!.observation(
    [{ name: "bash", args: { command }, ...result }],
    new Map(),
  ) as string;
  assert.match(observation, /^<returncode>0<\/returncode>\n<warning>\n/);
  const head = observation.match(/<output_head>\n([\s\S]*)\n<\/output_head>/)?.[1];
  assert.equal(head?.length, 5000);
  assert.ok(observation.includes(`<elided_chars>\n${12004 - 10000} characters elided\n`));
  assert.ok(observation.endsWith(`<output_tail>\n${"x\n".repeat(2498)}<&>\n\n</output_tail>`));
  assert.ok(!observation.includes("<output>"));
});

const TEXT_FORM = `
[interaction]
kind = "text"
protocol = "mini_swe_agent"

[interaction.messages]
format_error = "Please always provide EXACTLY ONE action in triple backticks, found {count} actions."
observation = "<returncode>{returncode}</returncode>\\n<output>\\n{output}</output>"
observation_long = "<returncode>{returncode}</returncode>\\n<warning>\\nToo long.\\n</warning>\\n<output_head>\\n{output_head}\\n</output_head>\\n<elided_chars>\\n{elided_chars} characters elided\\n</elided_chars>\\n<output_tail>\\n{output_tail}\\n</output_tail>"
timeout = "<command>{command}</command> timed out\\n<output>\\n{output}</output>"
`;

Deno.test("mini-swe-agent's text form is a matter of its messages: short, long, format error", async () => {
  const root = await Deno.makeTempDir({ prefix: "oi_text_form_" });
  try {
    const decl = JSON.parse(BASE_FILES["tools/run.json"]);
    const files = { ...BASE_FILES, "tools/run.json": JSON.stringify({ ...decl, name: "bash" }) };
    const h = await loadHarnessDir(await writeHarness(root, "t", BASE_SPEC + TEXT_FORM, files));
    const shell = (output: string, exitCode = 0) => ({
      name: "bash",
      args: {},
      text: output,
      isError: false,
      output: { command: "c", exitCode, output, timedOut: false },
    });
    const observe = (output: string, exitCode?: number) =>
      h.protocol!.observation([shell(output, exitCode)], new Map());
    assert.equal(observe("a <b>\n", 2), "<returncode>2</returncode>\n<output>\na <b>\n</output>");
    const long = observe(`${"a".repeat(6000)}${"b".repeat(6000)}`) as string;
    assert.ok(long.startsWith(`<returncode>0</returncode>\n<warning>\nToo long.\n</warning>\n`));
    assert.ok(long.includes(`<output_head>\n${"a".repeat(5000)}\n</output_head>`));
    assert.ok(long.includes("<elided_chars>\n2000 characters elided\n</elided_chars>"));
    assert.ok(long.endsWith(`<output_tail>\n${"b".repeat(5000)}\n</output_tail>`));
    assert.deepEqual(h.protocol!.parse("```bash\nls\n```\n```bash\npwd\n```", new Map()), {
      kind: "format_error",
      message: "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.",
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function loadError(spec: string): Promise<HarnessError> {
  const root = await Deno.makeTempDir({ prefix: "oi_texts_" });
  try {
    const err = await loadHarnessDir(await writeHarness(root, "t", spec)).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof HarnessError, `expected a HarnessError, got ${err}`);
    assert.ok(err.message.includes(`${root}/t/harness.toml`), err.message);
    return err;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a typo in an error text, an error code or a harness text is a load error naming it", async () => {
  const withErrors = (errors: string) =>
    BASE_SPEC.replace('capability = "shell.run"', 'capability = "fs.read"')
      .replace(
        'args = { command = "command", dir = "cwd", note = "" }',
        'args = { command = "path", dir = "", note = "" }',
      )
      .replace(
        'template = "exit {exit_code}\\n{output}", empty_output = "(no output)"',
        'template = "{text}"',
      ) +
    `errors = ${errors}\n`;
  const good = await loadTestHarness(withErrors('{ file_not_found = "No {path} in {cwd}" }'));
  assert.deepEqual(good.tools[0].errors, { file_not_found: "No {path} in {cwd}" });
  let err = await loadError(withErrors('{ file_not_found = "No {paht}" }'));
  assert.match(
    err.message,
    /key "tools\[0\]\.errors\.file_not_found": unknown placeholder "\{paht\}"/,
  );
  assert.match(err.hint ?? "", /\{absolute_path\}/);
  err = await loadError(withErrors('{ string_not_found = "x" }'));
  assert.match(err.message, /capability fs\.read has no error "string_not_found"/);
  assert.match(err.hint ?? "", /file_not_found, offset_beyond_end/);
  err = await loadError(BASE_SPEC.replace('"No tool named {name}"', '"No {nmae}"'));
  assert.match(err.message, /key "unknown_tool_template": unknown placeholder "\{nmae\}"/);
  const invalid = (table: string) =>
    BASE_SPEC.replace("\n[[tools]]", `\n[invalid_arguments]\n${table}\n\n[[tools]]`);
  err = await loadError(invalid('template = "{name}: {isues}"'));
  assert.match(err.message, /key "invalid_arguments\.template": unknown placeholder "\{isues\}"/);
  err = await loadError(invalid('template = "{issues}"\nmissing = "{parm}"'));
  assert.match(err.message, /key "invalid_arguments\.missing": unknown placeholder "\{parm\}"/);
});
