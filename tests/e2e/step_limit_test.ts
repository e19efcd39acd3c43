import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";

/** A script that keeps calling a tool: `n` tool-calling turns, then an answer. */
function toolLoop(n: number) {
  const turns = Array.from({ length: n }, (_, i) => ({
    reply: { tool_calls: [{ name: "exec_command", args: { cmd: `echo step${i}` } }] },
  }));
  return [...turns, { reply: { text: "finished" } }];
}

Deno.test("interpreter exec stops after max_turn_steps requests from config.toml and names the key", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(toolLoop(5));
  const home = await fakeHome(fake.baseUrl, "chat", "max_turn_steps = 2");
  try {
    const result = await interpreter(["exec", "loop"], { cwd: repo, home });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(fake.requests.length, 2);
    assert.match(
      result.stderr,
      /^error: Stopped at the turn limit \(max_turn_steps = 2\): the model made 2 requests without finishing the task$/m,
    );
    assert.match(result.stderr, /^hint: .*raise max_turn_steps \(.*-c max_turn_steps=4\)$/m);
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec -c max_turn_steps overrides config.toml and lets the task finish", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(toolLoop(3));
  const home = await fakeHome(fake.baseUrl, "chat", "max_turn_steps = 2");
  try {
    const result = await interpreter(["exec", "-c", "max_turn_steps=4", "loop"], {
      cwd: repo,
      home,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "finished");
    assert.equal(fake.requests.length, 4);
    assert.doesNotMatch(result.stderr, /^warning:/m);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec rejects a max_turn_steps that is not a positive integer", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(toolLoop(1));
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    for (const value of ["0", "-3", "2.5", '"many"']) {
      const result = await interpreter(["exec", "-c", `max_turn_steps=${value}`, "loop"], {
        cwd: repo,
        home,
      });
      assert.equal(result.code, 2, `${value}: ${result.stderr}`);
      assert.match(result.stderr, /^error: .*max_turn_steps/m, value);
    }
    assert.equal(fake.requests.length, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("interpreter exec allows far more than 200 requests by default", async () => {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(toolLoop(205));
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const result = await interpreter(["exec", "loop"], { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.requests.length, 206);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});
