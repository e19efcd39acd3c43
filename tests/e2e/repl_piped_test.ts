import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER } from "./_harness_env.ts";
import { until } from "./_poll.ts";
import { pipedRepl } from "./_setups_repo.ts";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("interpreter with piped stdin runs each line as a turn and exits 0 at the end", async () => {
  await using fake = await startFakeProvider([
    { expect: { user_contains: "first question" }, reply: { text: "Answer one." } },
    { expect: { user_contains: "second question" }, reply: { text: "Answer two." } },
  ]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await pipedRepl(["-s", "read-only"], {
      cwd: repo,
      home,
      stdin: "first question\nsecond question\n",
    });
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(fake.remaining(), 0, "both lines must reach the model");
    assert.match(result.stdout, /^interpreter · model fake-model · provider fake · /m);
    assert.match(result.stdout, /sandbox read-only · approval /);
    assert.ok(
      result.stdout.indexOf("Answer one.") < result.stdout.indexOf("second question"),
      "the second line waits for the first turn to end",
    );
    assert.match(result.stdout, /Answer two\./);
    const second = fake.requests[1].body as { messages: Array<{ content: unknown }> };
    assert.match(JSON.stringify(second.messages), /first question.*Answer one\./s);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("interpreter joins a line ending in a backslash with the next one", async () => {
  await using fake = await startFakeProvider([
    { expect: { user_contains: "line one\nline two" }, reply: { text: "Joined." } },
  ]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await pipedRepl([], { cwd: repo, home, stdin: "line one\\\nline two\n" });
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.remaining(), 0);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("interpreter answers slash commands from piped stdin and names the closest one", async () => {
  await using fake = await startFakeProvider([]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await pipedRepl([], {
      cwd: repo,
      home,
      stdin: "/stauts\n/mcp\n/permissions\n/help\n/quit\nnever sent\n",
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Unknown command "\/stauts"; did you mean \/status\?/);
    assert.match(result.stdout, /^No MCP servers are configured\. Add one in a shell with$/m);
    assert.match(result.stdout, /^approval: /m);
    assert.match(result.stdout, /\/harness +list the harnesses/);
    assert.equal(fake.requests.length, 0, "/quit ends the session before the last line");
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

/**
 * Runs the REPL with stdout on a pseudo-terminal (util-linux `script`) and stdin piped, and
 * returns every byte it wrote there.
 */
async function onTerminal(repo: string, home: string, env: string): Promise<string> {
  const log = await Deno.makeTempFile({ prefix: "oi-repl-typescript-" });
  try {
    const inner = `printf 'run it\\n' | env ${env} OPENINTERPRETER_HOME='${home}' ` +
      `FAKE_API_KEY=k '${LAUNCHER}' --yolo`;
    const out = await new Deno.Command("script", {
      args: ["-q", "-e", "-c", inner, log],
      cwd: repo,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, decode(out.stderr) + (await Deno.readTextFile(log)));
    return await Deno.readTextFile(log);
  } finally {
    await Deno.remove(log);
  }
}

Deno.test({
  name: "interpreter writes no escape byte with TERM=dumb NO_COLOR=1, and colors without them",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const repo = await fixtureRepo("habits");
    const turns = () => [
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "false" } }] } },
      { reply: { text: "It failed." } },
    ];
    try {
      for (const [env, escapes] of [["TERM=dumb NO_COLOR=1", false], ["TERM=xterm", true]]) {
        await using fake = await startFakeProvider(turns());
        const home = await fakeHome(fake.baseUrl, "chat");
        const output = await onTerminal(repo, home, env as string);
        await Deno.remove(home, { recursive: true });
        assert.match(output, /It failed\./);
        assert.match(output, /exit 1/);
        assert.equal(output.includes("\x1b"), escapes, `${env}: ${JSON.stringify(output)}`);
      }
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
});

/**
 * Runs a REPL on `firstInput`, then `resume --last` with a question only the first session's
 * history answers; `more` checks further, with the repo and home still there.
 */
async function resumeLast(
  firstInput: string,
  more: (at: { repo: string; home: string }) => Promise<void> = () => Promise.resolve(),
) {
  await using fake = await startFakeProvider([
    { expect: { user_contains: "remember 42" }, reply: { text: "Remembered." } },
    { expect: { user_contains: "which number" }, reply: { text: "It was 42." } },
  ]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const first = await pipedRepl([], { cwd: repo, home, stdin: firstInput });
    assert.equal(first.code, 0, first.stderr);
    const resumed = await pipedRepl(["resume", "--last"], {
      cwd: repo,
      home,
      stdin: "which number?\n",
    });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(fake.failures, []);
    assert.match(resumed.stdout, /It was 42\./);
    const body = JSON.stringify(fake.requests[1].body);
    assert.match(body, /remember 42[\s\S]*Remembered\.[\s\S]*which number/);
    await more({ repo, home });
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("interpreter resume --last continues the newest REPL session with its history", async () => {
  await resumeLast("remember 42\n", async ({ repo, home }) => {
    const picker = await pipedRepl(["resume"], { cwd: repo, home, stdin: "" });
    assert.equal(picker.code, 2, picker.stderr);
    assert.match(picker.stderr, /^error: The session picker needs a terminal$/m);
  });
});

Deno.test("interpreter resume --last passes over the empty session /new started last", async () => {
  await resumeLast("remember 42\n/new\n");
});

Deno.test("the REPL refuses a directory outside a git repository as exec does, unless told", async () => {
  await using fake = await startFakeProvider([{ reply: { text: "Ran here." } }]);
  const dir = await Deno.makeTempDir({ prefix: "oi-untrusted-" });
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const refused = await pipedRepl([], { cwd: dir, home, stdin: "hello\n" });
    const exec = await pipedRepl(["exec", "hello"], { cwd: dir, home, stdin: "" });
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.equal(refused.stdout, "");
    assert.equal(
      refused.stderr,
      "error: Not inside a trusted directory and --skip-git-repo-check was not specified\n" +
        "hint: Run inside a git repository, or pass --skip-git-repo-check\n",
    );
    assert.equal(exec.code, refused.code);
    assert.equal(exec.stderr, refused.stderr, "the same words as exec");
    assert.equal(fake.requests.length, 0);
    const allowed = await pipedRepl(["--skip-git-repo-check"], { cwd: dir, home, stdin: "hi\n" });
    assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
    assert.match(allowed.stdout, /Ran here\./);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a REPL killed with -9 mid-turn is picked up by resume --last with its task and tool calls", async () => {
  await using fake = await startFakeProvider([
    {
      expect: { user_contains: "the long task" },
      reply: {
        tool_calls: [{
          id: "call_long",
          name: "exec_command",
          args: { cmd: "echo $$ > started.txt; sleep 30" },
        }],
      },
    },
    { expect: { user_contains: "carry on" }, reply: { text: "Carried on." } },
  ]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const child = new Deno.Command(LAUNCHER, {
      args: ["--yolo"],
      cwd: repo,
      env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k" },
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("the long task\n"));
    await until(
      "the command to start",
      () => Deno.stat(`${repo}/started.txt`).then(() => true, () => false),
      15_000,
    );
    child.kill("SIGKILL");
    await child.status;
    await writer.close().catch(() => {});

    const resumed = await pipedRepl(["resume", "--last", "--yolo"], {
      cwd: repo,
      home,
      stdin: "carry on\n",
    });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Carried on\./);
    const body = JSON.stringify(fake.requests[1].body);
    assert.match(body, /the long task[^]*call_long[^]*sleep 30[^]*carry on/);
    assert.deepEqual(fake.failures, []);
  } finally {
    // The killed agent could not stop its command's process group; the test does.
    const pid = Number(await Deno.readTextFile(`${repo}/started.txt`).catch(() => ""));
    if (pid > 0) {
      try {
        Deno.kill(-pid, "SIGKILL");
      } catch { /* already gone */ }
    }
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("/model lists the providers, checks a name against a custom server's /v1/models and switches model and effort", async () => {
  await using fake = await startFakeProvider([{ reply: { text: "From the other model." } }], {
    models: ["fake-model", "other-model"],
  });
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await pipedRepl(["-s", "read-only"], {
      cwd: repo,
      home,
      stdin: "/model\n/model fake/other-modle\n/model fake/other-model high\nhello\n",
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /\* fake +fake-model/);
    assert.match(result.stdout, /^ {8}other-model +other-model$/m, "the server's list is shown");
    const output = result.stdout + result.stderr;
    assert.match(
      output,
      /Unknown model "other-modle" for provider "fake": it is not in the server's list/,
    );
    assert.match(output, /Did you mean \/model fake\/other-model\?/);
    assert.match(result.stdout, /deepseek +deepseek-chat/);
    assert.match(result.stdout, /model: fake\/other-model \(effort high\)/);
    assert.equal(result.stdout.match(/model: fake\/other-model/g)?.length, 1, "printed once");
    const posts = fake.requests.filter((r) => r.method === "POST");
    assert.equal((posts[0].body as { model: string }).model, "other-model");
    assert.ok(fake.requests.some((r) => r.method === "GET" && r.path === "/v1/models"));
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a repeated failing call stops the REPL's turn and suggests /harness, then it goes on", async () => {
  const failing = { reply: { tool_calls: [{ name: "bash", args: { command: "cat nope.txt" } }] } };
  await using fake = await startFakeProvider([
    failing,
    failing,
    failing,
    failing,
    { expect: { user_contains: "next" }, reply: { text: "Next answer." } },
  ]);
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await pipedRepl(["-m", "qwen3-coder-next", "--harness", "minimal"], {
      cwd: repo,
      home,
      stdin: "read nope.txt\nnext\n",
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(fake.failures, []);
    assert.match(result.stdout, /^Stopped: the same failing call 4 times in a row$/m);
    assert.match(result.stdout, /^ {2}bash \{"command":"cat nope\.txt"\}$/m);
    assert.match(
      result.stdout,
      /^It got the same error each time \(cat: nope\.txt: No such file or directory\)\. Try another harness before a bigger model: \/harness qwen-code, \/harness native; /m,
    );
    assert.match(result.stdout, /Next answer\./);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
