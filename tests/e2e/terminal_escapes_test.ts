/**
 * Escape sequences in a file a command prints, in the model's text and reasoning, and in a model
 * name a local server lists reach the terminal inert, shown as `\u{1b}`; exec's answer stays
 * byte-exact on a piped stdout.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeOllama } from "../fake_ollama/server.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";
import { waitForFile } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const ESC = "\x1b";
/** A clipboard write, a window title, a clear screen and a cursor move faking a green line. */
const EVIL_FILE = `build log\n${ESC}]52;c;cm0gLXJmIH4K\x07${ESC}]0;file-title\x07` +
  `${ESC}[2J${ESC}[H${ESC}[5A${ESC}[32mall tests passed${ESC}[0m\n\u202eexe.txt\n`;
const EVIL_TEXT = `Done.${ESC}]52;c;ZXZpbA==\x07 ${ESC}[5A${ESC}[2Kfine\x9b2J`;
const EVIL_THINKING = `hmm${ESC}]0;thinking-title\x07`;
const EVIL_MODEL = `evil${ESC}]0;model-title\x07:latest`;

/** Raw sequences of the attacks above; none of them may reach the terminal. */
const ATTACKS = [`${ESC}]52;`, `${ESC}]0;`, `${ESC}[2J`, `${ESC}[5A`, "\x9b", "\u202e"];

const evilTask = [
  {
    reply: { tool_calls: [{ name: "exec_command", args: { cmd: "cat evil.txt && false" } }] },
  },
  {
    expect: { last_tool_result_contains: "all tests passed" },
    reply: { thinking: EVIL_THINKING, text: EVIL_TEXT },
  },
];

async function evilRepo(): Promise<string> {
  const repo = await fixtureRepo("habits");
  await Deno.writeTextFile(join(repo, "evil.txt"), EVIL_FILE);
  return repo;
}

Deno.test({
  name: "the REPL on a terminal shows escape sequences from a file, the model and a local " +
    "server's model names inert, and keeps its own colors" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using ollama = startFakeOllama({
      models: [
        { name: "llama3.1:8b", capabilities: ["completion", "tools"] },
        { name: EVIL_MODEL, capabilities: ["completion", "tools"] },
      ],
      script: evilTask,
    });
    const repo = await evilRepo();
    const home = await Deno.makeTempDir({ prefix: "oi-home-" });
    try {
      await using pane = await Pane.open(["--oss", "-m", "llama3.1:8b", "--yolo"], {
        repo,
        home,
        vars: { OLLAMA_HOST: ollama.origin },
      });
      await pane.waitFor(PROMPT_LINE);
      const raw = join(home, "raw.log");
      await pane.record(raw);
      let from = await pane.mark();
      await pane.type("show the log");
      let screen = await pane.settled(from);
      assert.match(screen, /\\u\{1b\}\]52;c;cm0gLXJmIH4K\\u\{7\}/, "the file, made visible");
      assert.match(screen, /\\u\{1b\}\[5A\\u\{1b\}\[32mall tests passed/);
      assert.match(screen, /\\u\{202e\}exe\.txt/);
      assert.match(screen, /hmm\\u\{1b\}\]0;thinking-title/, "the reasoning, made visible");
      assert.match(screen, /Done\.\\u\{1b\}\]52;c;ZXZpbA==\\u\{7\} \\u\{1b\}\[5A/);
      assert.match(screen, /fine\\u\{9b\}2J/);

      from = await pane.mark();
      await pane.type("/model ollama/");
      screen = await pane.settled(from);
      assert.match(screen, /evil\\u\{1b\}\]0;model-title\\u\{7\}:latest/, "the listed name");

      const bytes = await waitForFile(raw, /model-title/);
      for (const attack of ATTACKS) {
        assert.ok(!bytes.includes(attack), `${JSON.stringify(attack)} reached the terminal`);
      }
      // The control: our own styling still reaches the terminal.
      assert.ok(bytes.includes(`${ESC}[1m$${ESC}[0m cat evil.txt`), "our bold $");
      assert.ok(bytes.includes(`${ESC}[31m✗ exit 1${ESC}[0m`), "our red exit code");
      assert.deepEqual(ollama.failures, []);
    } finally {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(repo, { recursive: true });
    }
  },
});

Deno.test("exec keeps a piped answer byte-exact and shows escape sequences on stderr inert", async () => {
  await using fake = await startFakeProvider(evilTask);
  const repo = await evilRepo();
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(["exec", "--yolo", "show the log"], { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(fake.failures, []);
    assert.equal(result.stdout, `${EVIL_TEXT}\n`, "the answer, exactly as the model wrote it");
    assert.match(result.stderr, /\\u\{1b\}\]52;c;cm0gLXJmIH4K\\u\{7\}/);
    assert.match(result.stderr, /\\u\{1b\}\[5A\\u\{1b\}\[32mall tests passed/);
    for (const attack of [ESC, "\x07", "\x9b", "\u202e"]) {
      assert.ok(!result.stderr.includes(attack), `${JSON.stringify(attack)} reached stderr`);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});
