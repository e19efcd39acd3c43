import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { parseArgs } from "./cli.ts";
import { serverEntryOf } from "./mcp_cli.ts";

/** The `mcp` arguments `argv` parses to. */
function mcp(argv: string[]) {
  const invocation = parseArgs(argv, "v", false);
  assert.equal(invocation.mode, "mcp");
  return invocation.mode === "mcp" ? invocation.mcp : undefined;
}

/** Asserts that `run` throws a `UsageError` with `message` and a hint matching `hint`. */
function refuses(run: () => unknown, message: string, hint: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.message, message);
    assert.match(error.hint ?? "", hint);
    assert.equal(error.exitCode, 2);
    return true;
  });
}

Deno.test("interpreter mcp add takes the command after -- with its options, or a URL", () => {
  assert.deepEqual(
    mcp(["mcp", "add", "docs", "--env", "A=1", "--env", "B=x=y", "--", "npx", "-y", "pkg", "--ro"]),
    {
      command: "add",
      name: "docs",
      entry: { command: "npx", args: ["-y", "pkg", "--ro"], env: { A: "1", B: "x=y" } },
    },
  );
  assert.deepEqual(mcp(["mcp", "add", "t", "--", "tool"]), {
    command: "add",
    name: "t",
    entry: { command: "tool" },
  });
  assert.deepEqual(
    mcp(["mcp", "add", "web", "--url", "https://h/mcp", "--bearer-token-env-var", "WEB_TOKEN"]),
    {
      command: "add",
      name: "web",
      entry: { url: "https://h/mcp", bearer_token_env_var: "WEB_TOKEN" },
    },
  );
});

Deno.test("interpreter mcp list, get, remove, login and logout parse to their commands", () => {
  assert.deepEqual(mcp(["mcp", "list"]), { command: "list", json: false });
  assert.deepEqual(mcp(["mcp", "list", "--json"]), { command: "list", json: true });
  assert.deepEqual(mcp(["mcp", "get", "docs", "--json"]), {
    command: "get",
    name: "docs",
    json: true,
  });
  for (const command of ["remove", "login", "logout"]) {
    assert.deepEqual(mcp(["mcp", command, "docs"]), { command, name: "docs" });
  }
});

Deno.test("interpreter mcp add refuses a bad name, --env without =, and no or two transports", () => {
  const entry = (name: string, command: string[], flags = {}) => () =>
    serverEntryOf(name, command, { env: [], ...flags });
  refuses(
    entry("my.docs", ["x"]),
    'Invalid MCP server name "my.docs": use only letters, digits, _ and -',
    /mcp__NAME__TOOL\); try "my_docs"/,
  );
  refuses(
    entry("", ["x"]),
    'Invalid MCP server name "": use only letters, digits, _ and -',
    /"docs"/,
  );
  refuses(
    entry("a", ["x"], { env: ["TOKEN"] }),
    'Invalid --env "TOKEN": expected KEY=VALUE',
    /--env KEY=VALUE/,
  );
  refuses(
    entry("a", ["x"], { env: ["=v"] }),
    'Invalid --env "=v": expected KEY=VALUE',
    /KEY=VALUE/,
  );
  refuses(
    entry("a", []),
    "Missing the server to add: a command after -- or --url",
    /interpreter mcp add a -- COMMAND \[ARGS\.\.\.\].*interpreter mcp add a --url URL/,
  );
  refuses(
    entry("a", ["x"], { url: "https://h/mcp" }),
    "Cannot add a server with both a command and --url",
    /stdio server .* or --url for an HTTP one/,
  );
  refuses(
    entry("a", [], { url: "ftp://h/mcp" }),
    'Invalid --url "ftp://h/mcp": expected an http or https URL',
    /--url https:/,
  );
  refuses(
    entry("a", [], { url: "https://h", bearerTokenEnvVar: "sk-secret" }),
    'Invalid --bearer-token-env-var "sk-secret": expected the name of an environment variable',
    /the variable's name, not the token/,
  );
  refuses(
    entry("a", [], { url: "https://h", env: ["A=1"] }),
    "Cannot use --env with --url: it sets variables of a started command",
    /Drop --env/,
  );
  refuses(
    entry("a", ["x"], { bearerTokenEnvVar: "T" }),
    "Cannot use --bearer-token-env-var without --url",
    /--env KEY=VALUE/,
  );
});

Deno.test("interpreter mcp add with the server's options before -- says to put them after it", () => {
  refuses(
    () => parseArgs(["mcp", "add", "docs", "npx", "-y", "pkg"], "v", false),
    "Unknown option '-y'",
    /^Put the server's command after --, as in "interpreter mcp add NAME -- npx -y PACKAGE"/,
  );
  refuses(
    () => parseArgs(["mcp", "get"], "v", false),
    "Missing required argument 'name'",
    /^Run "interpreter mcp get --help"/,
  );
});
