import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { VERSION } from "../../lib/version.ts";
import {
  fakeHome,
  fixtureRepo,
  interpreter,
  LAUNCHER,
  REPO,
  run,
  type TempDirs,
  tempDirs,
} from "./_harness_env.ts";

const emptyHome = (dirs: TempDirs) => dirs.add(Deno.makeTempDir({ prefix: "oi-home-" }));

Deno.test("interpreter --version prints the version and the git commit", async () => {
  await using dirs = tempDirs();
  const result = await interpreter(["--version"], { cwd: Deno.cwd(), home: await emptyHome(dirs) });
  assert.equal(result.code, 0, result.stderr);
  const head = await run("git", ["rev-parse", "HEAD"], REPO).catch(() => undefined);
  const commit = head?.code === 0 ? head.stdout.trim().slice(0, 12) : "unknown";
  assert.equal(result.stdout, `interpreter ${VERSION} (commit ${commit})\n`);
});

Deno.test("interpreter exec rejects an unknown flag with exit code 2 and a hint", async () => {
  await using dirs = tempDirs();
  const result = await interpreter(["exec", "--frobnicate", "x"], {
    cwd: Deno.cwd(),
    home: await emptyHome(dirs),
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^error: Unknown option '--frobnicate'/m);
  assert.match(result.stderr, /^hint: Run "interpreter exec --help"/m);
});

Deno.test("interpreter exec rejects a bad --sandbox value with exit code 2", async () => {
  await using dirs = tempDirs();
  const result = await interpreter(["exec", "-s", "loose", "x"], {
    cwd: Deno.cwd(),
    home: await emptyHome(dirs),
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^error: .*'loose' is invalid/m);
});

Deno.test("interpreter exec names the missing API key variable", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const result = await interpreter(["exec", "-c", 'model_provider="deepseek"', "hi"], {
    cwd: repo,
    home: await emptyHome(dirs),
    env: { DEEPSEEK_API_KEY: "" },
  });
  assert.equal(result.code, 2, "a missing key is a configuration problem");
  assert.match(result.stderr, /^error: .*"DEEPSEEK_API_KEY"/m);
  assert.match(result.stderr, /^hint: /m);
});

Deno.test("a harness typo is told before a missing key; a right name still gets the key error", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await emptyHome(dirs);
  const env = { DEEPSEEK_API_KEY: "" };
  const withHarness = (id: string) =>
    interpreter(["exec", "-c", 'model_provider="deepseek"', "--harness", id, "hi"], {
      cwd: repo,
      home,
      env,
    });
  const [typo, right] = await Promise.all([withHarness("claud-code"), withHarness("claude-code")]);
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(typo.stderr, /^error: Unknown harness "claud-code"$/m);
  assert.match(typo.stderr, /^hint: Available harnesses: .*claude-code/m);
  assert.doesNotMatch(typo.stderr, /API key/);
  assert.equal(right.code, 2, right.stderr);
  assert.match(right.stderr, /^error: Missing API key .*"DEEPSEEK_API_KEY"/m);
});

Deno.test("-C with no such folder exits 2 naming it, before or after the command; -C before exec is used", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const elsewhere = await dirs.add(Deno.makeTempDir({ prefix: "oi-not-git-" }));
  await using fake = await startFakeProvider([{ reply: { text: "Ran in the repo." } }]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const missing = join(elsewhere, "no-such-folder");
  const runs = await Promise.all([
    ["-C", missing, "exec", "hi"],
    ["exec", "-C", missing, "hi"],
    ["-C", missing],
    ["-C", repo, "exec", "hi"],
  ].map((args) => interpreter(args, { cwd: elsewhere, home })));
  for (const result of runs.slice(0, 3)) {
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `^error: Cannot use "${missing}" as the working directory: it is not a directory`,
        "m",
      ),
    );
    assert.match(result.stderr, /^hint: Pass an existing directory to -C\/--cd$/m);
  }
  const used = runs[3];
  assert.equal(used.code, 0, used.stderr);
  assert.equal(used.stdout, "Ran in the repo.\n");
  assert.deepEqual(fake.failures, []);
});

Deno.test("interpreter exec refuses to run outside a git repository without the flag", async () => {
  await using dirs = tempDirs();
  const dir = await dirs.add(Deno.makeTempDir());
  const result = await interpreter(["exec", "hi"], { cwd: dir, home: await emptyHome(dirs) });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /--skip-git-repo-check/);
});

Deno.test("interpreter exec reports a provider failure with exit code 1", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    { error: { status: 401, body: { error: { message: "bad key" } } } },
  ]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(["exec", "hi"], { cwd: repo, home });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^error: .*401/m);
});

Deno.test("interpreter debug config shows each value with its origin", async () => {
  await using dirs = tempDirs();
  const home = await emptyHome(dirs);
  await Deno.writeTextFile(join(home, "config.toml"), 'model = "from-user"\n');
  const result = await interpreter(
    ["debug", "config", "-c", 'model_reasoning_effort="high"', "--harness", "native"],
    { cwd: Deno.cwd(), home },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /model = "from-user".*#.*user/);
  assert.match(result.stdout, /model_reasoning_effort = "high".*#.*-c/);
  assert.match(result.stdout, /harness = "native".*#.*--harness/);
});

Deno.test("interpreter --help lists the exec command and exits 0", async () => {
  await using dirs = tempDirs();
  const result = await interpreter(["--help"], { cwd: Deno.cwd(), home: await emptyHome(dirs) });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Usage: interpreter/m);
  assert.match(result.stdout, /^\s+exec\|e \[options\] \[prompt\]/m);
});

Deno.test("interpreter exec reads the prompt from stdin when given '-'", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    { expect: { user_contains: "prompt from a pipe" }, reply: { text: "piped ok" } },
  ]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "responses"));
  const child = new Deno.Command(LAUNCHER, {
    args: ["exec", "-"],
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("prompt from a pipe\n"));
  await writer.close();
  const out = await child.output();
  assert.deepEqual(fake.failures, []);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout), "piped ok\n");
});

Deno.test("interpreter exec chooses claude-code-bare for a DeepSeek model automatically", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    { expect: { tools_include: ["Bash", "Read", "Edit"] }, reply: { text: "bare ok" } },
  ]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(["exec", "-m", "deepseek-chat", "hi"], { cwd: repo, home });
  assert.deepEqual(fake.failures, []);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /^harness: claude-code-bare$/m);
});

Deno.test("interpreter exec names an unknown harness and lists the known ones", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(["exec", "--harness", "nope", "hi"], { cwd: repo, home });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^error: .*"nope"/m);
  assert.match(result.stderr, /native/);
});

Deno.test("interpreter exec names both the harness and the wire API when they cannot pair", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(["exec", "--harness", "zcode", "hi"], { cwd: repo, home });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^error: wire_api = "chat" is not supported by harness = "zcode"/m);
  assert.match(result.stderr, /^hint: .*"messages"/m);
  assert.equal(fake.requests.length, 0);
});

Deno.test("interpreter exec stops on Ctrl-C with exit code 130 and no answer on stdout", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([{ reply: { text: "x".repeat(400) } }], {
    chunkDelayMs: 200,
  });
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const child = new Deno.Command(LAUNCHER, {
    args: ["exec", "hi"],
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  for (let i = 0; i < 100 && fake.requests.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(fake.requests.length, 1, "the request must be under way before Ctrl-C");
  child.kill("SIGINT");
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 130, stderr);
  assert.equal(new TextDecoder().decode(out.stdout), "");
  assert.match(stderr, /^error: Interrupted$/m);
});

Deno.test("interpreter __fs_helper serves file operations, as a compiled binary's helper", async () => {
  await using dirs = tempDirs();
  const dir = await dirs.add(Deno.makeTempDir());
  await Deno.writeTextFile(`${dir}/a.txt`, "hello");
  const child = new Deno.Command(LAUNCHER, {
    args: ["__fs_helper"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const request = { id: 7, op: "readFile", args: [`${dir}/a.txt`] };
  await writer.write(new TextEncoder().encode(JSON.stringify(request) + "\n"));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const reply = JSON.parse(new TextDecoder().decode(out.stdout).trim());
  assert.deepEqual(reply, { id: 7, ok: true, result: btoa("hello") });
});

Deno.test("interpreter exec sends qwen-code's date reminder before the prompt", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    { expect: { user_contains: "Today's date is 2026-11-29." }, reply: { text: "ok" } },
  ]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(["exec", "--harness", "qwen-code", "PROMPT-7f3"], {
    cwd: repo,
    home,
    env: { OPENINTERPRETER_TEST_TIME: "2026-11-29" },
  });
  assert.deepEqual(fake.failures, []);
  assert.equal(result.code, 0, result.stderr);
  const body = fake.requests[0].body as { messages: Array<{ role: string; content: unknown }> };
  const user = JSON.stringify(body.messages.find((m) => m.role === "user")?.content);
  assert.ok(user.indexOf("Today's date") < user.indexOf("PROMPT-7f3"), "the reminder comes first");
});

Deno.test("interpreter exec saves its session, and with --ephemeral saves none", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider([{ reply: { text: "one" } }, {
    reply: { text: "two" },
  }]);
  const home = await fakeHome(fake.baseUrl, "chat");
  const sessionFiles = async () => {
    const out = await new Deno.Command("find", {
      args: [home, "-name", "*.jsonl", "-path", "*sessions*"],
    })
      .output();
    return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
  };
  try {
    assert.equal((await interpreter(["exec", "--ephemeral", "hi"], { cwd: repo, home })).code, 0);
    assert.deepEqual(await sessionFiles(), []);
    assert.equal((await interpreter(["exec", "hi"], { cwd: repo, home })).code, 0);
    const files = await sessionFiles();
    assert.equal(files.length, 1);
    assert.match(await Deno.readTextFile(files[0]), /"origin":"exec"/);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
