/**
 * The REPL's answers on a terminal: Markdown rendered (bold, highlighted code), a command's
 * description as its title and a successful command's first and last lines; piped, the answer
 * is the model's text exactly.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptTurn } from "../fake_provider/server.ts";
import { LAUNCHER } from "./_harness_env.ts";
import { replEnv, waitForFile } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const ESC = "\x1b";
const ANSWER = "Counted **twenty** lines with:\n\n```python\ndef count():\n    return 20\n```\n\n" +
  "- `seq` printed them";

const turns = (): ScriptTurn[] => [
  {
    expect: { tools_include: ["Bash"] },
    reply: {
      tool_calls: [{ name: "Bash", args: { command: "seq 20", description: "Count to twenty" } }],
    },
  },
  { expect: { last_tool_result_contains: "19\n20" }, reply: { text: ANSWER } },
];

Deno.test({
  name: "the REPL on a terminal renders Markdown and shows a titled command's first and last " +
    "lines" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv(turns());
    const { fake, repo, home } = env;
    {
      await using pane = await Pane.open(["--yolo", "--harness", "claude-code"], { repo, home });
      await pane.waitFor(PROMPT_LINE);
      const raw = join(home, "raw.log");
      await pane.record(raw);
      const from = await pane.mark();
      await pane.type("count to twenty");
      const screen = await pane.settled(from);
      assert.deepEqual(fake.failures, []);
      assert.match(
        screen,
        /Count to twenty\n\$ seq 20\n {2}✓ exit 0 in [^\n]+\n {4}1\n {4}2\n {4}3\n {4}… 14 more lines\n {4}18\n {4}19\n {4}20\n/,
      );
      assert.match(screen, /^Counted twenty lines with:$/m, "the ** are gone");
      assert.match(screen, /^ {4}def count\(\):\n {8}return 20$/m, "the fences are gone");
      assert.match(screen, /^ {2}\* seq printed them$/m);
      const bytes = await waitForFile(raw, /printed them/);
      assert.ok(bytes.includes(`Counted ${ESC}[1mtwenty${ESC}[22m lines`), "bold");
      assert.ok(bytes.includes(`${ESC}[35mdef${ESC}[39m`), "the code block, highlighted");
      assert.ok(bytes.includes(`${ESC}[33m20${ESC}[39m`), "its number, highlighted");
    }
  },
});

Deno.test("the REPL with stdout piped writes the model's Markdown exactly as written", async () => {
  await using env = await replEnv(turns());
  const { fake, repo, home } = env;
  {
    const child = new Deno.Command(LAUNCHER, {
      args: ["--yolo", "--harness", "claude-code"],
      cwd: repo,
      env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", TERM: "xterm-256color" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("count to twenty\n"));
    await writer.close();
    const out = await child.output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, stdout + new TextDecoder().decode(out.stderr));
    assert.deepEqual(fake.failures, []);
    assert.ok(stdout.includes(`\n${ANSWER}\n`), stdout);
    assert.match(stdout, /Count to twenty\n\$ seq 20\n[\s\S]*… 14 more lines/);
    assert.ok(!stdout.includes(ESC), "no escape sequence when piped");
  }
});
