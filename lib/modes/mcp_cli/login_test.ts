import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../../errors.ts";
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
