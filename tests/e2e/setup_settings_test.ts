/**
 * Hooks, env and status lines from other agents' settings (issue 33 §5), through the real CLI
 * against the fake provider, in a copy of the shared fixture repository: before `interpreter
 * trust --yes` the Claude Code PreToolUse hook, the Gemini CLI BeforeTool hook and the Claude
 * `env` do nothing (a warning names `interpreter trust`); after it the hooks block their commands
 * and the commands see the env. In the REPL on a terminal the Claude `statusLine` script's line
 * is shown where the built-in status line is.
 */
import assert from "node:assert/strict";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { setupsRepo, trustedProject } from "./_setups_repo.ts";

const call = (cmd: string) => ({
  reply: { tool_calls: [{ name: "exec_command", args: { cmd } }] },
});

/** One exec's turns: a push, a deploy and an echo of the settings' variable, each result checked. */
function turns(results: [string, string, string]): unknown[] {
  return [
    call("git push origin main"),
    { expect: { last_tool_result_contains: results[0] }, ...call("make deploy") },
    { expect: { last_tool_result_contains: results[1] }, ...call('echo "[$SETUP_GREETING]"') },
    { expect: { last_tool_result_contains: results[2] }, reply: { text: "checked" } },
  ];
}

Deno.test("Claude Code and Gemini CLI hooks and Claude's env take effect only after trust", async () => {
  const repo = await setupsRepo();
  const script = [
    ...turns(["origin", "make", "[]"]),
    ...turns([
      "Pushing is blocked by this project's hook",
      "Deploys are blocked by the Gemini hook",
      "[hello from the Claude settings]",
    ]),
  ];
  await using fake = await startFakeProvider(
    parseScript(script.map((t) => JSON.stringify(t)).join("\n")),
  );
  const home = await fakeHome(
    fake.baseUrl,
    "chat",
    trustedProject(repo),
  );
  const userHome = await Deno.makeTempDir({ prefix: "oi-user-" });
  const env = { HOME: userHome };
  try {
    const before = await interpreter(["exec", "check"], { cwd: repo, home, env });
    assert.equal(before.code, 0, before.stderr);
    assert.equal(before.stdout.trim(), "checked");
    assert.match(before.stderr, /2 hooks of the project .* not trusted yet[^\n]*interpreter trust/);
    assert.match(
      before.stderr,
      /status-line command "\.claude\/settings\.json" and env setting "SETUP_GREETING" of the project [^\n]* not trusted yet and left off[^\n]*"interpreter trust"/,
    );

    const trust = await interpreter(["trust", "--yes"], { cwd: repo, home, env });
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /block-push\.sh/);
    assert.match(trust.stdout, /no-deploy\.sh/);
    assert.match(trust.stdout, /SETUP_GREETING="hello from the Claude settings"/);
    assert.match(trust.stdout, /statusline\.sh/);

    const after = await interpreter(["exec", "check"], { cwd: repo, home, env });
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout.trim(), "checked");
    assert.doesNotMatch(after.stderr, /not trusted yet/);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
    await Deno.remove(userHome, { recursive: true });
  }
});

Deno.test({
  name: "the REPL shows a trusted Claude Code statusLine script's line" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const repo = await setupsRepo();
    await using fake = await startFakeProvider(
      parseScript(JSON.stringify({ reply: { text: "answered" } })),
    );
    const home = await fakeHome(
      fake.baseUrl,
      "chat",
      trustedProject(repo),
    );
    const userHome = await Deno.makeTempDir({ prefix: "oi-user-" });
    try {
      const env = { HOME: userHome };
      const trust = await interpreter(["trust", "--yes"], { cwd: repo, home, env });
      assert.equal(trust.code, 0, trust.stderr);
      await using pane = await Pane.open([], { repo, home, vars: env });
      await pane.waitFor(PROMPT_LINE, 0, 60_000);
      const from = await pane.mark();
      await pane.type("hello");
      const shown = await pane.waitFor(/^STATUSLINE .*\n› $/m, from, 60_000);
      assert.match(shown, /answered/);
      const name = repo.split("/").at(-1)!;
      assert.match(
        shown,
        new RegExp(`^STATUSLINE model=fake-model project=${name} cols=\\d+$`, "m"),
      );
      assert.doesNotMatch(shown, /% context/, "the script's line replaces the built-in one");
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
      await Deno.remove(userHome, { recursive: true });
    }
  },
});
