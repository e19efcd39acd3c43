import assert from "node:assert/strict";
import { type ScriptTurn, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";

const SECRET = "local-secret-7c1f";

/** A webfetch of `url` through the opencode harness, expecting `resultHas` back, then an answer. */
function fetching(url: string, resultHas: string): ScriptTurn[] {
  return [
    { reply: { tool_calls: [{ name: "webfetch", args: { url, format: "text" } }] } },
    { expect: { last_tool_result_contains: resultHas }, reply: { text: "done" } },
  ];
}

async function fetchInExec(url: string, resultHas: string, config: string) {
  const repo = await fixtureRepo("habits");
  await using fake = await startFakeProvider(fetching(url, resultHas));
  const home = await fakeHome(fake.baseUrl, "chat", config);
  try {
    const args = ["exec", "-m", "qwen3-coder-next", "--harness", "opencode", "read the page"];
    const result = await interpreter(args, { cwd: repo, home });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
}

Deno.test("interpreter exec refuses a web fetch of this machine unless allowed_hosts lists it", async () => {
  let hits = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    hits++;
    return new Response(SECRET, { headers: { "content-type": "text/plain" } });
  });
  const port = server.addr.port;
  const network = "sandbox_workspace_write = { network_access = true }";
  await fetchInExec(
    `http://localhost:${port}/`,
    `Refusing to fetch "http://localhost:${port}/": "localhost" names this machine`,
    network,
  );
  assert.equal(hits, 0, "the local server was never asked");
  const allowed = `${network}\nweb_fetch = { allowed_hosts = ["localhost:${port}"] }`;
  await fetchInExec(`http://localhost:${port}/`, SECRET, allowed);
  assert.equal(hits, 1);
  // Under untrusted a fetch needs approval, which exec without a terminal cannot give.
  await fetchInExec(
    `http://localhost:${port}/`,
    "No one is available to approve webfetch (approval_policy is untrusted and it reaches the " +
      "network), so it was not run",
    `${allowed}\napproval_policy = "untrusted"`,
  );
  assert.equal(hits, 1, "not fetched without approval");
});
