/**
 * `interpreter mcp login NAME` and `mcp logout NAME` as a user runs them, against an MCP server
 * that needs an OAuth sign-in (the SDK's server-side auth, in this test's process). The test
 * plays the browser: it reads the printed authorization URL and follows it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { authFile, readStoredKeys, storeKey } from "../../lib/config/auth.ts";
import { startOAuthTestServer } from "../../lib/mcp/_oauth_testing.ts";
import { readMcpLogin } from "../../lib/mcp/oauth_store.ts";
import { interpreter, LAUNCHER, tempDirs } from "./_harness_env.ts";

/** Runs `mcp login NAME`, opening the URL it prints as a browser would; its output. */
async function login(name: string, home: string) {
  const child = new Deno.Command(LAUNCHER, {
    args: ["mcp", "login", name],
    cwd: home,
    env: { OPENINTERPRETER_HOME: home, BROWSER: "none", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  let read = false;
  try {
    let url: string | undefined;
    while (!url) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += value;
      url = stdout.match(/^ {2}(http\S+)$/m)?.[1];
    }
    if (url) await fetch(url).then((page) => page.text());
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      stdout += chunk.value;
    }
    read = true;
  } finally {
    if (!read) child.kill(); // the test failed while the process still ran
  }
  return { code: (await child.status).code, stdout, stderr: await stderr };
}

Deno.test("mcp login stores the tokens 0600 beside the provider keys; mcp logout removes them", async () => {
  await using dirs = tempDirs();
  await using server = await startOAuthTestServer();
  const home = await dirs.add(Deno.makeTempDir({ prefix: "oi-home-" }));
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `# my servers\n[mcp_servers.docs]\nurl = "${server.url}"\n`,
  );
  await storeKey(home, "deepseek", "sk-kept");

  const signedIn = await login("docs", home);
  assert.equal(signedIn.code, 0, signedIn.stderr);
  assert.match(signedIn.stdout, /open this URL in your browser/);
  assert.match(signedIn.stdout, /Signed in to MCP server "docs" \(1 tool\)/);
  assert.ok(signedIn.stdout.includes(`Tokens stored in ${authFile(home)}`), signedIn.stdout);
  assert.equal((await Deno.stat(authFile(home))).mode! & 0o777, 0o600);
  assert.ok(readMcpLogin(home, "docs")?.tokens.refresh_token);
  assert.deepEqual(readStoredKeys(home), { deepseek: "sk-kept" });
  assert.deepEqual(server.grants, ["authorization_code"]);

  const out = await interpreter(["mcp", "logout", "docs"], { cwd: home, home });
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /Removed the sign-in of MCP server "docs"/);
  assert.equal(readMcpLogin(home, "docs"), undefined);
  assert.deepEqual(readStoredKeys(home), { deepseek: "sk-kept" });
  const again = await interpreter(["mcp", "logout", "docs"], { cwd: home, home });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /No sign-in is stored for MCP server "docs"/);
});
