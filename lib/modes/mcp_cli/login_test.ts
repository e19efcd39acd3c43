import assert from "node:assert/strict";
import { join } from "node:path";
import { AuthError, UsageError } from "../../errors.ts";
import { startOAuthTestServer } from "../../mcp/_oauth_testing.ts";
import { runMcpLogin } from "./login.ts";

Deno.test("mcp login names the fix for an unknown server and for a stdio server, exit 2", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  try {
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `[mcp_servers.local]\ncommand = "npx"\nargs = ["-y", "some-server"]\n`,
    );
    const opts = {
      home,
      env: {},
      cwd: home,
      openUrl: () => assert.fail("no browser for a failed login"),
    };
    await assert.rejects(() => runMcpLogin("docs", opts), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.equal(error.exitCode, 2);
      assert.equal(error.message, `No MCP server "docs" is configured`);
      assert.match(
        error.hint!,
        /Configured servers: local; .*"interpreter mcp add docs --url URL"/,
      );
      return true;
    });
    await assert.rejects(() => runMcpLogin("local", opts), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /"local" runs a command over stdio and has no sign-in/);
      assert.match(error.hint!, /Only servers with a url sign in/);
      return true;
    });
    await assert.rejects(() => Deno.stat(join(home, "auth.json")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** A config home whose server "docs" is the sign-in server at `url`. */
async function homeWith(url: string): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "oi-home-" });
  await Deno.writeTextFile(join(path, "config.toml"), `[mcp_servers.docs]\nurl = "${url}"\n`);
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("mcp login refuses a file:, smb: or custom-scheme sign-in URL, shows it, opens nothing", async () => {
  for (const endpoint of ["file:///etc/passwd", "ms-settings-evil:run?x=1", "smb://host/share"]) {
    await using server = await startOAuthTestServer({ authorizationEndpoint: endpoint });
    await using home = await homeWith(server.url);
    const opened: string[] = [];
    const opts = { home: home.path, env: {}, cwd: home.path, timeoutMs: 30_000 };
    await assert.rejects(
      runMcpLogin("docs", { ...opts, openUrl: (url) => opened.push(url) > 0 }),
      (error: unknown) => {
        assert.ok(error instanceof AuthError, String(error));
        assert.match(error.message, /^Refused the sign-in URL of MCP server "docs": its scheme is/);
        assert.ok(error.message.includes(`"${endpoint}`), error.message);
        assert.match(error.hint!, /^Nothing was opened\. A sign-in page must be an https: URL/);
        return true;
      },
    );
    assert.deepEqual(opened, [], `nothing opened for ${endpoint}`);
    await assert.rejects(() => Deno.stat(join(home.path, "auth.json")), Deno.errors.NotFound);
  }
});

Deno.test("mcp login opens an https: sign-in URL (a fake opener gets it)", async () => {
  const endpoint = "https://auth.example/authorize";
  await using server = await startOAuthTestServer({ authorizationEndpoint: endpoint });
  await using home = await homeWith(server.url);
  const opened: string[] = [];
  await assert.rejects(
    runMcpLogin("docs", {
      home: home.path,
      env: {},
      cwd: home.path,
      timeoutMs: 1,
      openUrl: (url) => opened.push(url) > 0,
    }),
    /did not come back/,
  );
  assert.equal(opened.length, 1);
  assert.ok(opened[0].startsWith(`${endpoint}?`), opened[0]);
  assert.equal(new URL(opened[0]).searchParams.get("code_challenge_method"), "S256");
});
