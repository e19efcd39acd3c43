/** `exec resume`, `-o`, `--ephemeral` and how `exec --json` reports failures, through the CLI. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveDrops, textFrames } from "../fake_provider/drop_server.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";
import { parseEventLines } from "./_thread_events.ts";

async function sessionFiles(home: string): Promise<string[]> {
  const out = await new Deno.Command("find", { args: [home, "-name", "session-*.jsonl"] }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
}

async function workspace(baseUrl: string, wire = "chat") {
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(baseUrl, wire);
  return {
    repo,
    cwd: repo,
    home,
    async [Symbol.asyncDispose]() {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("exec -o writes the answer; exec resume --last continues the session with its history", async () => {
  await using fake = await startFakeProvider([
    { expect: { user_contains: "remember 42" }, reply: { text: "Noted." } },
    { expect: { user_contains: "what number" }, reply: { text: "42." } },
  ]);
  await using ws = await workspace(fake.baseUrl);
  const out = join(ws.repo, "last.txt");
  const first = await interpreter(["exec", "-o", out, "remember 42"], ws);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, "Noted.\n");
  assert.equal(await Deno.readTextFile(out), "Noted.");
  const [file] = await sessionFiles(ws.home);
  const id = /-([0-9a-f-]{36})\.jsonl$/.exec(file)![1];

  const second = await interpreter(["exec", "--json", "resume", "--last", "what number"], ws);
  assert.equal(second.code, 0, second.stderr);
  const events = parseEventLines(second.stdout);
  assert.deepEqual(events[0], { type: "thread.started", thread_id: id });
  assert.match(JSON.stringify(fake.requests[1].body), /remember 42.*Noted\./s);
  assert.deepEqual(await sessionFiles(ws.home), [file], "the resumed session appends to its file");
  assert.deepEqual(fake.failures, []);
});

Deno.test("exec resume NAME continues the one session of that name; a shared name lists both", async () => {
  await using fake = await startFakeProvider([
    { expect: { user_contains: "remember 7" }, reply: { text: "Noted 7." } },
    { expect: { user_contains: "remember 9" }, reply: { text: "Noted 9." } },
    { expect: { user_contains: "which number" }, reply: { text: "9." } },
  ]);
  await using ws = await workspace(fake.baseUrl);
  for (const prompt of ["remember 7", "remember 9"]) {
    const run = await interpreter(["exec", prompt], ws);
    assert.equal(run.code, 0, run.stderr);
  }
  // ids[0] is the session told 7, ids[1] the one told 9.
  const files = await sessionFiles(ws.home);
  assert.equal(files.length, 2);
  const texts = await Promise.all(files.map((f) => Deno.readTextFile(f)));
  if (texts[0].includes("remember 9")) files.reverse();
  const ids = files.map((f) => /-([0-9a-f-]{36})\.jsonl$/.exec(f)![1]);
  const names = (seven: string) => JSON.stringify({ [ids[0]]: seven, [ids[1]]: "numbers" });
  await Deno.writeTextFile(join(ws.home, "session_names.json"), names("numbers"));
  const shared = await interpreter(["exec", "resume", "numbers", "which number"], ws);
  assert.equal(shared.code, 1, shared.stderr);
  assert.match(shared.stderr, /error: "numbers" matches 2 saved sessions: /);
  for (const id of ids) assert.ok(shared.stderr.includes(id), shared.stderr);
  assert.equal(fake.requests.length, 2, "nothing was sent for the shared name");

  await Deno.writeTextFile(join(ws.home, "session_names.json"), names("other"));
  const named = await interpreter(["exec", "resume", "numbers", "which number"], ws);
  assert.equal(named.code, 0, named.stderr);
  const resumed = JSON.stringify(fake.requests[2].body);
  assert.match(resumed, /remember 9/);
  assert.doesNotMatch(resumed, /remember 7/);
  assert.deepEqual(fake.failures, []);
});

Deno.test("exec --json --ephemeral saves nothing and still names a thread", async () => {
  await using fake = await startFakeProvider([{ reply: { text: "ok" } }]);
  await using ws = await workspace(fake.baseUrl);
  const result = await interpreter(["exec", "--json", "--ephemeral", "hi"], ws);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(parseEventLines(result.stdout)[0].type, "thread.started");
  assert.deepEqual(await sessionFiles(ws.home), []);
});

Deno.test("exec --json: a provider error is a top-level error then turn.failed, exit 1", async () => {
  await using fake = await startFakeProvider([
    { error: { status: 400, body: { error: { message: "bad request" } } } },
  ]);
  await using ws = await workspace(fake.baseUrl);
  const result = await interpreter(["exec", "--json", "hi"], ws);
  assert.equal(result.code, 1);
  const events = parseEventLines(result.stdout);
  const tail = events.slice(-2);
  assert.equal(tail[0].type, "error");
  assert.deepEqual(tail[1], {
    type: "turn.failed",
    error: { message: (tail[0] as { message: string }).message },
  });
  assert.match((tail[0] as { message: string }).message, /400/);
});

Deno.test("exec --json: a dropped stream is a non-fatal error event and the turn goes on", async () => {
  const first = textFrames("chat", "A first answer the connection drops");
  await using server = serveDrops([
    { frames: first, cut: { after: first.length - 4, how: "close" } },
    { frames: textFrames("chat", "The whole answer.") },
  ]);
  await using ws = await workspace(server.baseUrl);
  const result = await interpreter(["exec", "--json", "hi"], ws);
  assert.equal(result.code, 0, result.stderr);
  const events = parseEventLines(result.stdout);
  const types = events.map((e) => e.type);
  assert.deepEqual(types.slice(-3), ["error", "item.completed", "turn.completed"]);
  assert.match((events.at(-3) as { message: string }).message, /^Reconnecting\.\.\. 1\/5 \(/);
});
