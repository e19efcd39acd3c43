import assert from "node:assert/strict";
import { serveDrops, textFrames } from "../fake_provider/drop_server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";

const FIRST = "A first answer that the connection drops halfway through";
const SECOND = "The whole second answer.";

Deno.test("interpreter exec says Reconnecting (n/N) and prints only the retried answer", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const first = textFrames("chat", FIRST);
  await using server = serveDrops([
    { frames: first, cut: { after: first.length - 4, how: "close" } },
    { frames: textFrames("chat", SECOND) },
  ]);
  const home = await dirs.add(fakeHome(server.baseUrl, "chat"));
  const result = await interpreter(["exec", "hi"], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${SECOND}\n`);
  assert.match(
    result.stderr,
    /^Reconnecting \(1\/5\) in \d+ ms: The stream from Fake was interrupted: /m,
  );
  assert.doesNotMatch(result.stderr, /Cannot reach|check the network/i);
  assert.equal(server.requests(), 2);
});

Deno.test("interpreter exec finishes after a 429, a 500 and a dropped stream in a row", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const first = textFrames("chat", FIRST);
  await using server = serveDrops([
    { status: 429 },
    { status: 500 },
    { frames: first, cut: { after: first.length - 4, how: "close" } },
    { frames: textFrames("chat", SECOND) },
  ]);
  // The fake home sets request_max_retries = 2: both failed requests use it up, and the
  // dropped stream still has its own budget (stream_max_retries, default 5).
  const home = await dirs.add(fakeHome(server.baseUrl, "chat"));
  const result = await interpreter(["exec", "hi"], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${SECOND}\n`);
  const reconnecting = result.stderr.match(/^Reconnecting \(\d+\/\d+\)/gm);
  assert.deepEqual(reconnecting, [
    "Reconnecting (1/2)",
    "Reconnecting (2/2)",
    "Reconnecting (1/5)",
  ]);
  assert.match(result.stderr, /^Reconnecting \(1\/2\) in 0 ms: Fake returned HTTP 429: /m);
  assert.equal(server.requests(), 4);
});

Deno.test("interpreter exec names an HTML page that answers instead of the API", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const portal = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<!doctype html><html><head><title>Hotel Wi-Fi</title></head></html>", {
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    const baseUrl = `http://127.0.0.1:${portal.addr.port}/v1`;
    const home = await dirs.add(fakeHome(baseUrl, "chat"));
    const result = await interpreter(["exec", "hi"], { cwd: repo, home });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        '^error: Fake answered with an HTML page \\("Hotel Wi-Fi"\\) instead of an API stream: ' +
          `${baseUrl}/chat/completions$`,
        "m",
      ),
    );
    assert.match(result.stderr, /^hint: Check base_url ".*", and any proxy/m);
    assert.doesNotMatch(result.stderr, /finish_reason|Reconnecting/);
  } finally {
    await portal.shutdown();
  }
});
