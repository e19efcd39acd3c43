import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { authFile, readStoredKeys, removeStoredKeys, storeKey } from "../config/auth.ts";
import { startOAuthTestServer } from "./_oauth_testing.ts";
import { browserCommand, signInUrlProblem } from "./oauth_browser.ts";
import { OAuthCallbackError, startOAuthCallback } from "./oauth_callback.ts";
import { signIn } from "./oauth_login.ts";
import { mcpAuthProvider, needsLogin } from "./oauth_provider.ts";
import { readMcpLogin, removeMcpLogin } from "./oauth_store.ts";

async function tempHome(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "oauth_home_" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Plays the browser: follows the authorization URL (and its redirect to the callback). */
function browser() {
  const visits: Promise<number>[] = [];
  return {
    open(url: string) {
      visits.push(
        fetch(url).then(async (response) => {
          await response.text();
          return response.status;
        }),
      );
      return true;
    },
    done: () => Promise.all(visits),
  };
}

async function connected(url: string, authProvider?: OAuthClientProvider) {
  const client = new Client({ name: "oauth-test-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

async function whoami(client: Client): Promise<string> {
  const result = await client.callTool({ name: "whoami", arguments: {} });
  return (result.content as Array<{ text: string }>)[0].text;
}

async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o777;
}

Deno.test("signIn() stores tokens 0600 beside the provider keys; a session refreshes an expired token", async () => {
  await using server = await startOAuthTestServer();
  await using home = await tempHome();
  await storeKey(home.path, "openai", "sk-kept");
  const visit = browser();
  const result = await signIn(home.path, "docs", server.url, { showUrl: visit.open });
  assert.deepEqual(await visit.done(), [200], "the callback page answered");
  assert.equal(result.signedIn, true);
  assert.equal(result.tools, 1);
  assert.equal(await modeOf(authFile(home.path)), 0o600);
  const login = readMcpLogin(home.path, "docs")!;
  assert.equal(login.url, server.url);
  assert.ok(login.tokens.refresh_token);
  assert.ok(Date.parse(login.expires_at!) > Date.now());
  assert.deepEqual(readStoredKeys(home.path), { openai: "sk-kept" });
  assert.deepEqual(server.grants, ["authorization_code"]);

  const provider = mcpAuthProvider(home.path, "docs", server.url);
  assert.ok(provider);
  await using client = await connected(server.url, provider);
  assert.equal(await whoami(client), login.tokens.access_token);
  server.expireAccessTokens();
  const refreshed = await whoami(client);
  assert.notEqual(refreshed, login.tokens.access_token);
  assert.equal(readMcpLogin(home.path, "docs")!.tokens.access_token, refreshed, "stored and used");
  assert.deepEqual(server.grants, ["authorization_code", "refresh_token"]);
  assert.equal(await modeOf(authFile(home.path)), 0o600);
  assert.deepEqual(readStoredKeys(home.path), { openai: "sk-kept" });

  assert.equal(await removeStoredKeys(home.path), true, "interpreter logout");
  assert.ok(readMcpLogin(home.path, "docs"), "MCP sign-ins outlive interpreter logout");
  assert.equal(await removeMcpLogin(home.path, "docs"), true);
  assert.equal(await removeMcpLogin(home.path, "docs"), false);
  await assert.rejects(() => Deno.stat(authFile(home.path)), Deno.errors.NotFound);
});

Deno.test("a 401 without a stored login, and a refused refresh, read as needing a login", async () => {
  await using server = await startOAuthTestServer();
  await using home = await tempHome();
  assert.equal(mcpAuthProvider(home.path, "docs", server.url), undefined);
  const anonymous = await connected(server.url).then(() => undefined, (error) => error);
  assert.ok(needsLogin(anonymous), String(anonymous));
  assert.equal(needsLogin(anonymous, { bearer_token_env_var: "DOCS_TOKEN" }), false);
  assert.equal(needsLogin(new Error("connection refused")), false);

  const visit = browser();
  await signIn(home.path, "docs", server.url, { showUrl: visit.open });
  await visit.done();
  assert.equal(mcpAuthProvider(home.path, "docs", "http://127.0.0.1:1/elsewhere"), undefined);
  server.expireAccessTokens();
  server.revokeRefreshTokens();
  const refused = await connected(server.url, mcpAuthProvider(home.path, "docs", server.url))
    .then(() => undefined, (error) => error);
  assert.ok(needsLogin(refused), String(refused));
  assert.match(String(refused), /interpreter mcp login docs/);
  assert.equal(readMcpLogin(home.path, "docs"), undefined, "the dead sign-in is gone");
  assert.equal(server.clientCount(), 1, "a session registers no client");
});

Deno.test("signIn() to a server that needs none stores nothing", async () => {
  await using home = await tempHome();
  await using server = await startOAuthTestServer();
  const result = await signIn(home.path, "open", server.openUrl, {
    showUrl: () => assert.fail("no authorization URL expected"),
  });
  assert.deepEqual(result, { signedIn: false, tools: 1 });
  await assert.rejects(() => Deno.stat(authFile(home.path)), Deno.errors.NotFound);
});

Deno.test("the callback refuses another state and an error answer, and gives up at the deadline", async () => {
  for (
    const [query, reason] of [
      ["code=c&state=forged", /another state/],
      ["error=access_denied&error_description=no%1b[31m&state=s", /"access_denied": no \[31m/],
    ] as const
  ) {
    await using callback = await startOAuthCallback("s");
    assert.match(callback.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const refused = assert.rejects(callback.waitForCode(30_000), (error: unknown) => {
      assert.ok(error instanceof OAuthCallbackError);
      assert.match(error.message, reason);
      return true;
    });
    const response = await fetch(`${callback.redirectUrl}?${query}`);
    assert.equal(response.status, 400);
    assert.match(await response.text(), /Sign-in failed/);
    await refused;
  }
  await using idle = await startOAuthCallback("s");
  await assert.rejects(idle.waitForCode(1), /did not come back within 0 s/);
});

Deno.test("browserCommand() takes $BROWSER, BROWSER=none, else the platform's opener", () => {
  const url = "https://auth.example/authorize?a=1&b=2";
  assert.deepEqual(browserCommand(url, { BROWSER: "firefox" }, "linux"), ["firefox", url]);
  assert.equal(browserCommand(url, { BROWSER: "none" }, "linux"), undefined);
  assert.deepEqual(browserCommand(url, {}, "linux"), ["xdg-open", url]);
  assert.deepEqual(browserCommand(url, {}, "darwin"), ["open", url]);
  assert.deepEqual(browserCommand(url, {}, "windows"), [
    "rundll32",
    "url.dll,FileProtocolHandler",
    url,
  ]);
});

Deno.test("signInUrlProblem() lets https: and loopback http: through, nothing else", () => {
  for (const url of ["https://auth.example/a", "http://127.0.0.1:9/a", "http://localhost/a"]) {
    assert.equal(signInUrlProblem(url), undefined, url);
  }
  assert.equal(signInUrlProblem("http://[::1]:8080/a"), undefined);
  const refused = {
    "file:///C:/Windows/System32/calc.exe": /scheme is file:/,
    "file://server/share/run.exe": /scheme is file:/,
    "smb://server/share": /scheme is smb:/,
    "vscode://ext/run": /scheme is vscode:/,
    "javascript:alert(1)": /scheme is javascript:/,
    "http://auth.example/a": /http: to another machine/,
    "http://127.0.0.1.evil.example/a": /http: to another machine/,
    "\\\\server\\share\\run.exe": /not a URL/,
  };
  for (const [url, why] of Object.entries(refused)) assert.match(signInUrlProblem(url)!, why, url);
  assert.equal(browserCommand("file:///etc/passwd", { BROWSER: "firefox" }, "linux"), undefined);
  assert.equal(browserCommand("smb://server/share", {}, "windows"), undefined);
});
