import assert from "node:assert/strict";
import { type ScriptTurn, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";

/** `n` replies that each run `command` through minimal's bash tool, then an answer. */
function repeating(command: string, n: number, expectOnLast?: string): ScriptTurn[] {
  const turns: ScriptTurn[] = Array.from({ length: n }, () => ({
    reply: { tool_calls: [{ name: "bash", args: { command } }] },
  }));
  if (expectOnLast) turns[n - 1].expect = { last_tool_result_contains: expectOnLast };
  return [...turns, { reply: { text: "finished" } }];
}

const ARGS = ["exec", "-m", "qwen3-coder-next", "--harness", "minimal", "read the file"];
const REMINDER = "The same bash call has failed 3 times in a row";

Deno.test("interpreter exec stops a model repeating a failing call, exits 1 and names the call", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(repeating("cat missing.txt", 6, REMINDER));
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(ARGS, { cwd: repo, home });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(fake.requests.length, 4, "a reminder after three, the stop after four");
    assert.deepEqual(fake.failures, []);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /^error: The model made the same failing call 4 times in a row: bash \{"command":"cat missing\.txt"\}$/m,
    );
    assert.match(
      result.stderr,
      /^hint: It got the same error each time \(cat: missing\.txt: No such file or directory\)\. Try another harness before a bigger model: --harness qwen-code, --harness native; loop_guard\.repeats sets how many repeats are allowed$/m,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec --json ends a repeated failing call with turn.failed naming it", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(repeating("cat missing.txt", 6));
  const home = await fakeHome(fake.baseUrl, "chat", "loop_guard_repeats = 2");
  try {
    const result = await interpreter(["exec", "--json", ...ARGS.slice(1)], { cwd: repo, home });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(fake.requests.length, 3);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    assert.equal(last.type, "turn.failed");
    assert.match(last.error.message, /same failing call 3 times in a row: bash/);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec lets a model poll with the same succeeding call", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(repeating("cat habits.py", 6));
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(ARGS, { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "finished");
    assert.equal(fake.requests.length, 7);
    const bodies = JSON.stringify(fake.requests.map((r) => r.body));
    assert.ok(!bodies.includes("failed 3 times"), "no loop reminder for a succeeding call");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec rejects a loop_guard_repeats of 1 with the values it takes", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(repeating("true", 1));
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(["exec", "-c", "loop_guard_repeats=1", "go"], {
      cwd: repo,
      home,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /loop_guard_repeats/);
    assert.match(result.stderr, /use 0 to turn this check off, or a number of repeats of 2/);
    assert.equal(fake.requests.length, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

/** `n` replies that never hold a command, then an answer no request should reach. */
function noCommand(n: number): ScriptTurn[] {
  const turns = Array.from({ length: n }, () => ({ reply: { text: "Let me think it over." } }));
  return [...turns, { reply: { text: "finished" } }];
}

Deno.test("interpreter exec stops swe-agent after 4 replies without a command, exits 1 and says so", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(noCommand(30));
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(
      ["exec", "-m", "qwen3-coder-next", "--harness", "swe-agent", "fix it"],
      { cwd: repo, home },
    );
    assert.equal(result.code, 1, result.stderr);
    assert.equal(fake.requests.length, 4, "a reminder after three, the stop after four");
    assert.deepEqual(fake.failures, []);
    assert.match(
      result.stderr,
      /^error: The model wrote 4 replies in a row without a usable command$/m,
    );
    assert.match(
      result.stderr,
      /^hint: Each time it was told: Your reply could not be used: your reply has no command in it\. Try another harness before a bigger model: .*; loop_guard\.format_errors sets how many such replies are allowed$/m,
    );
    const third = JSON.stringify(fake.requests[3].body);
    assert.match(third, /NOTE: your last 3 replies could not be used/);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec --json ends mini-swe-agent's replies without a command with turn.failed", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(noCommand(30));
  const home = await fakeHome(fake.baseUrl, "chat", "[loop_guard]\nformat_errors = 2");
  try {
    const result = await interpreter(
      ["exec", "--json", "-m", "qwen3-coder-next", "--harness", "mini-swe-agent", "fix it"],
      { cwd: repo, home },
    );
    assert.equal(result.code, 1, result.stderr);
    assert.equal(fake.requests.length, 3);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    assert.equal(last.type, "turn.failed");
    assert.equal(last.error.message, "The model wrote 3 replies in a row without a usable command");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec cuts off a reply that repeats one sentence and tells the model why", async () => {
  const repo = await fixtureRepo("habits");
  const sentence = "I need to read the file again to be sure. ";
  const runaway = "Let me check. " + sentence.repeat(3000);
  await using fake = await startFakeProvider([
    { reply: { text: runaway } },
    { expect: { user_contains: "was cut off" }, reply: { text: "finished" } },
  ]);
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(ARGS, { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "finished");
    assert.deepEqual(fake.failures, []);
    assert.equal(fake.requests.length, 2);
    const messages =
      (fake.requests[1].body as { messages: Array<{ role: string; content: unknown }> })
        .messages;
    const kept = messages.find((m) => m.role === "assistant");
    assert.equal(
      kept?.content,
      "Let me check. " + sentence,
      "one copy kept of a 126,000-character reply",
    );
    assert.match(
      JSON.stringify(messages.at(-1)),
      /cut off: it repeated the same text \d+ times in a row/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});
