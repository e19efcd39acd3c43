/**
 * Claude Code's permission rules (issue 33 §4) through the real CLI against the fake provider, in
 * a copy of the shared fixture repository whose `.claude/settings.json` denies `Bash(rm:*)` and
 * `Read(./secrets/**)` and allows `Bash(npm run test:*)`: the deny rules hold at once (before any
 * trust), the secret is hidden from `cat` in the sandbox too, and the allow rule lets a command
 * run without a question under `-a untrusted` only once `interpreter trust --yes` trusted it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter } from "./_harness_env.ts";
import { pipedRepl, setupsRepo } from "./_setups_repo.ts";

function bash(command: string, expect?: string): string {
  return JSON.stringify({
    ...(expect ? { expect: { last_tool_result_contains: expect } } : {}),
    reply: { tool_calls: [{ name: "Bash", args: { command } }] },
  });
}

function answer(text: string, expect: string): string {
  return JSON.stringify({ expect: { last_tool_result_contains: expect }, reply: { text } });
}

const SCRIPT = [
  bash("rm -f habits.py"),
  answer("rm refused", 'denied by the rule "Bash(rm:*)"'),
  bash("cat secrets/api.env"),
  JSON.stringify({
    expect: { last_tool_result_contains: "No such file" },
    reply: { tool_calls: [{ name: "Read", args: { file_path: "secrets/api.env" } }] },
  }),
  answer("secret hidden", 'denied by the rule "Read(./secrets/**)"'),
  bash("npm run test:unit"),
  answer("not approved", "No one is available to approve"),
  bash("npm run test:unit"),
  answer("tests ran", "unit tests passed"),
].join("\n");

Deno.test("Claude Code's permission rules deny, hide and allow under every policy", async () => {
  const repo = await setupsRepo();
  await using fake = await startFakeProvider(parseScript(SCRIPT));
  const home = await fakeHome(fake.baseUrl, "messages");
  const userHome = await Deno.makeTempDir({ prefix: "oi-user-" });
  const env = { HOME: userHome };
  const exec = (policy: string, prompt: string) =>
    interpreter(["exec", "--harness", "claude-code", "-a", policy, prompt], {
      cwd: repo,
      home,
      env,
    });
  try {
    const rm = await exec("never", "remove habits.py");
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(rm.stdout.trim(), "rm refused");
    assert.equal(await Deno.readTextFile(join(repo, "habits.py")), "def habit():\n    return 1\n");

    const secret = await exec("never", "show the secret");
    assert.equal(secret.code, 0, secret.stderr);
    assert.equal(secret.stdout.trim(), "secret hidden");
    assert.doesNotMatch(JSON.stringify(fake.requests.slice(2)), /hunter2/);

    const untrusted = await exec("untrusted", "run the unit tests");
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(
      untrusted.stderr,
      /is not trusted, so the MCP servers, hooks, env, status lines and allow rules of its [^\n]*\.claude\/settings\.json[^\n]*"interpreter trust"/,
    );

    const trust = await interpreter(["trust", "--yes"], { cwd: repo, home, env });
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout + trust.stderr, /Bash\(npm run test:\*\)/);

    const trusted = await exec("untrusted", "run the unit tests");
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(trusted.stdout.trim(), "tests ran");
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
    await Deno.remove(userHome, { recursive: true });
  }
});

Deno.test("/permissions lists the rules with their files and adds one that applies at once", async () => {
  const repo = await setupsRepo();
  await using fake = await startFakeProvider(parseScript([
    bash("git push origin main"),
    answer("push refused", 'denied by the rule "Bash(git push:*)"'),
  ].join("\n")));
  const home = await fakeHome(fake.baseUrl, "messages", "# my settings\n");
  try {
    const result = await pipedRepl(["--harness", "claude-code"], {
      cwd: repo,
      home,
      stdin: "/permissions deny Bash(git push:*)\n/permissions\npush it\n",
      env: { NO_COLOR: "1" },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Added the deny rule "Bash\(git push:\*\)" to .*config\.toml/);
    assert.match(result.stdout, /deny {2}Bash\(git push:\*\) {2}.*config\.toml/);
    assert.match(result.stdout, /deny {2}Bash\(rm:\*\) {2}.*\.claude\/settings\.json/);
    assert.match(
      result.stdout,
      /ask {3}WebFetch\(domain:example\.com\) {2}.*settings\.local\.json/,
    );
    assert.match(result.stdout, /push refused/);
    const config = await Deno.readTextFile(join(home, "config.toml"));
    assert.match(
      config,
      /\n# my settings\n[^]*\[permission_rules\]\ndeny = \["Bash\(git push:\*\)"\]\n/,
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
