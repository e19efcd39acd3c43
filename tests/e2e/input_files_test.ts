import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER, type RunResult } from "./_harness_env.ts";

/** Long enough for a slow start; a read that blocks or never ends is killed at this deadline. */
const DEADLINE_MS = 60_000;

/** `scripts/interpreter ARGS`, killed if it is still running at the deadline. */
async function interpreterWithin(
  args: string[],
  opts: { cwd: string; home: string },
): Promise<RunResult> {
  const out = await new Deno.Command(LAUNCHER, {
    args,
    cwd: opts.cwd,
    env: { OPENINTERPRETER_HOME: opts.home, FAKE_API_KEY: "test-key", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(DEADLINE_MS),
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** A fixture repository, a config home for the fake provider, and a scratch dir. */
async function inputEnv(answers: string[] = []) {
  const fake = startFakeProvider(answers.map((text) => ({ reply: { text } })));
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  const scratch = await Deno.makeTempDir({ prefix: "oi-inputs-" });
  return {
    fake,
    repo,
    home,
    scratch,
    exec: (args: string[]) => interpreterWithin(["exec", ...args], { cwd: repo, home }),
    async [Symbol.asyncDispose]() {
      await fake.close();
      for (const dir of [repo, home, scratch]) await Deno.remove(dir, { recursive: true });
    },
  };
}

async function mkfifo(path: string): Promise<void> {
  assert.ok((await new Deno.Command("mkfifo", { args: [path] }).output()).success);
}

Deno.test("exec --output-schema refuses /dev/zero, a FIFO and a 100 MB file with exit code 2", async () => {
  await using env = await inputEnv();
  const fifo = join(env.scratch, "schema.fifo");
  await mkfifo(fifo);
  const sparse = join(env.scratch, "huge.json");
  await Deno.writeTextFile(sparse, "");
  await Deno.truncate(sparse, 100 * 1024 * 1024);
  const cases = [
    ["/dev/zero", /"\/dev\/zero": it is a character device, not a regular file$/m],
    [fifo, /schema\.fifo": it is a FIFO \(named pipe\), not a regular file$/m],
    [sparse, /huge\.json": it is 100 MB, over the limit of 4 MB$/m],
  ] as const;
  for (const [file, reason] of cases) {
    const result = await env.exec(["--output-schema", file, "hi"]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: Failed to read output schema file "/m);
    assert.match(result.stderr, reason);
    assert.match(result.stderr, /^hint: Pass --output-schema a JSON Schema file of at most 4 MB/m);
  }
  assert.equal(env.fake.requests.length, 0);
});

Deno.test("a config.toml that is a FIFO is refused with exit code 2, naming it", async () => {
  await using env = await inputEnv();
  const config = join(env.home, "config.toml");
  await Deno.remove(config);
  await mkfifo(config);
  const result = await env.exec(["hi"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: Cannot read ".*config\.toml": it is a FIFO/m);
});

Deno.test("control: a normal schema file still works", async () => {
  await using env = await inputEnv(['{"n": 3}']);
  const schema = join(env.scratch, "schema.json");
  await Deno.writeTextFile(schema, JSON.stringify({ type: "object", required: ["n"] }));
  const result = await env.exec(["--output-schema", schema, "count"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), '{"n": 3}');
  assert.match(JSON.stringify(env.fake.requests[0].body), /codex_output_schema/);
});

Deno.test("a FIFO named AGENTS.md is skipped instead of stalling the start", async () => {
  await using env = await inputEnv(["done"]);
  await mkfifo(join(env.repo, "AGENTS.md"));
  const result = await env.exec(["hi"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "done");
});
