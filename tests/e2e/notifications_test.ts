/**
 * Notifications (issue 34 item 2): the REPL's OSC 9 notices in a real pseudo-terminal, sent while
 * the terminal's focus is unknown or out and not once it reports focus; Claude Code's
 * Notification hook when an approval waits; Codex's `notify` program after an exec turn and
 * when the Codex SDK sets it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Codex } from "@openai/codex-sdk";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, LAUNCHER } from "./_harness_env.ts";
import { replEnv, waitForFile } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { until } from "./_poll.ts";

/** A script that writes its last argument (the payload) to `<dir>/payload.json`. */
async function notifyScript(dir: string): Promise<string> {
  const script = join(dir, "notify.sh");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\nfor last; do :; done\nprintf '%s' "$last" > '${dir}/payload.tmp'\n` +
      `mv '${dir}/payload.tmp' '${dir}/payload.json'\n`,
  );
  await Deno.chmod(script, 0o755);
  return script;
}

const OSC9 = (text: string) => `\x1b]9;${text}\x07`;

Deno.test({
  name: "the REPL sends OSC 9 notices unless the terminal reports focus, and runs " +
    "Notification hooks when an approval waits" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-notices-" }));
    const hookOut = join(dir, "hook.json");
    await using env = await replEnv([
      { expect: { user_contains: "first task" }, reply: { text: "Done one." } },
      { expect: { user_contains: "second task" }, reply: { text: "Done two." } },
      {
        expect: { user_contains: "third task" },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch made.txt" } }] },
      },
      { reply: { text: "Done three." } },
    ], {
      config: '[tui]\nnotifications = true\nnotification_method = "osc9"\n' +
        `[[hooks.Notification]]\nmatcher = "permission_prompt"\n` +
        `[[hooks.Notification.hooks]]\ntype = "command"\ncommand = "cat > '${hookOut}'"\n`,
    });
    const raw = join(dir, "raw.out");
    try {
      await using pane = await Pane.open(["-a", "untrusted", "-s", "workspace-write"], env);
      await pane.record(raw);
      await pane.waitFor(PROMPT_LINE, 0, 60_000); // a first start may build the bundle
      const bytes = () => Deno.readTextFile(raw).catch(() => "");

      // No focus report yet: the user may be away, so the end of the turn is announced.
      let from = await pane.mark();
      await pane.type("first task");
      await pane.waitFor(/Done one\./, from);
      await pane.settled(from);
      await until(
        "the first notice",
        async () => (await bytes()).includes(OSC9("Turn complete: Done one.")),
      );

      // The terminal says it has focus: no notice, and the report is not typed text.
      from = await pane.mark();
      await pane.type("\x1b[I", false);
      await pane.type("second task");
      await pane.waitFor(/Done two\./, from);
      await pane.settled(from);

      // Focus out: the approval and the end of the turn are announced; the hook hears of it.
      from = await pane.mark();
      await pane.type("\x1b[O", false);
      await pane.type("third task");
      await pane.waitFor(/touch made\.txt[\s\S]*\[y\] yes once/, from);
      await until(
        "the approval notice",
        async () => (await bytes()).includes(OSC9("Approval requested: touch made.txt")),
      );
      const hook = JSON.parse(await waitForFile(hookOut, /\}\s*$/));
      assert.equal(hook.hook_event_name, "Notification");
      assert.equal(hook.notification_type, "permission_prompt");
      assert.match(hook.message, /needs your permission to use Bash/);
      await pane.type("y", false);
      await pane.waitFor(/Done three\./, from);
      await until(
        "the third notice",
        async () => (await bytes()).includes(OSC9("Turn complete: Done three.")),
      );
      const notices = (await bytes()).split("\x1b]9;").slice(1).map((n) => n.split("\x07")[0]);
      assert.deepEqual(notices, [
        "Turn complete: Done one.",
        "Approval requested: touch made.txt",
        "Turn complete: Done three.",
      ], "none while the terminal had focus");
      const second = JSON.stringify(env.fake.requests[1]?.body);
      assert.match(second, /second task/);
      assert.doesNotMatch(second, /\[I/, "the focus report stayed out of the prompt");

      await pane.settled(from);
      await pane.key("C-d");
      await pane.waitFor(/^EXIT:0$/m, from);
      await until("focus reports turned off", async () => (await bytes()).includes("\x1b[?1004l"));
      assert.deepEqual(env.fake.failures, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("exec runs the notify program with Codex's payload after the turn; a project's notify is ignored", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-notify-e2e-" }));
  const fake = startFakeProvider([{
    expect: { user_contains: "say hi" },
    reply: { text: "Hello there." },
  }]);
  const repo = await fixtureRepo("habits");
  const script = await notifyScript(dir);
  const home = await fakeHome(fake.baseUrl, "chat", `notify = ["${script}", "tag"]`);
  try {
    await Deno.mkdir(join(repo, ".openinterpreter"), { recursive: true });
    await Deno.writeTextFile(
      join(repo, ".openinterpreter", "config.toml"),
      'notify = ["sh", "-c", "touch pwned"]\n',
    );
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `[projects."${repo}"]\ntrust_level = "trusted"\n`,
      { append: true },
    );
    const result = await interpreter(["exec", "--json", "say hi"], { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    const threadId = JSON.parse(result.stdout.split("\n")[0]).thread_id;
    const payload = JSON.parse(await waitForFile(join(dir, "payload.json"), /\}$/));
    assert.deepEqual({ ...payload, "turn-id": typeof payload["turn-id"] }, {
      type: "agent-turn-complete",
      "thread-id": threadId,
      "turn-id": "string",
      cwd: repo,
      client: "interpreter-exec",
      "input-messages": ["say hi"],
      "last-assistant-message": "Hello there.",
    });
    assert.match(
      result.stderr + result.stdout,
      /Ignoring \\?"notify\\?" in .*only be set in the user config/,
    );
    assert.equal(await Deno.stat(join(repo, "pwned")).then(() => true, () => false), false);
  } finally {
    await fake.close();
    for (const path of [dir, repo, home]) await Deno.remove(path, { recursive: true });
  }
});

Deno.test("Codex SDK: notify and [tui] notification keys are honoured, not ignored", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-notify-sdk-" }));
  const fake = startFakeProvider([{ reply: { text: "Noted." } }]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "responses");
  try {
    const script = await notifyScript(dir);
    const envVars: Record<string, string> = {
      ...Deno.env.toObject(),
      OPENINTERPRETER_HOME: home,
      FAKE_API_KEY: "test-key",
      NO_COLOR: "1",
    };
    delete envVars.OPENAI_BASE_URL;
    const codex = new Codex({
      codexPathOverride: LAUNCHER,
      env: envVars,
      config: {
        notify: [script],
        tui: {
          notifications: ["agent-turn-complete", "approval-requested"],
          notification_method: "bel",
          notification_condition: "always",
        },
      },
    });
    const thread = codex.startThread({ workingDirectory: repo, skipGitRepoCheck: true });
    const result = await thread.run("take a note");
    assert.equal(result.finalResponse, "Noted.");
    const warnings = result.items.flatMap((i) => i.type === "error" ? [i.message] : []);
    assert.ok(!warnings.some((w) => /notify|tui/.test(w)), warnings.join("\n"));
    const payload = JSON.parse(await waitForFile(join(dir, "payload.json"), /\}$/));
    assert.equal(payload["thread-id"], thread.id);
    assert.deepEqual(payload["input-messages"], ["take a note"]);
    assert.equal(payload["last-assistant-message"], "Noted.");
  } finally {
    await fake.close();
    for (const path of [dir, repo, home]) await Deno.remove(path, { recursive: true });
  }
});
