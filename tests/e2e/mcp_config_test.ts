/**
 * `interpreter mcp add/list/get/remove` as real processes on a config.toml with comments: the
 * comments and other keys stay byte for byte, and every bad input is an error with a hint.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { interpreter, tempDirs } from "./_harness_env.ts";

const CONFIG = `# interpreter's configuration; every key is described in the README.
model = "gpt-5"   # the default model
approval_policy = "on-request"

# A server written by hand, with a subtable; mcp add leaves it alone.
[mcp_servers.handmade]
command = "uvx"
args = ["handmade-mcp"] # pinned

[mcp_servers.handmade.tools.write]
approval_mode = "prompt"

[sandbox_workspace_write]
network_access = false # stays off
`;

/** A config home holding CONFIG, and a way to run `interpreter mcp …` on it. */
async function mcpHome() {
  const dirs = tempDirs();
  const home = await dirs.add(Deno.makeTempDir({ prefix: "oi-home-" }));
  const cwd = await dirs.add(Deno.makeTempDir({ prefix: "oi-cwd-" }));
  const file = join(home, "config.toml");
  await Deno.writeTextFile(file, CONFIG);
  return {
    file,
    run: (...args: string[]) => interpreter(["mcp", ...args], { cwd, home }),
    interpreter: (...args: string[]) => interpreter(args, { cwd, home }),
    [Symbol.asyncDispose]: () => dirs[Symbol.asyncDispose](),
  };
}

Deno.test("interpreter mcp add, list, get and remove edit config.toml keeping the rest byte for byte", async () => {
  await using env = await mcpHome();
  const stdio = await env.run(
    "add",
    "docs",
    "--env",
    "DOCS_KEY=s3cret",
    "--",
    "npx",
    "-y",
    "docs-mcp",
  );
  assert.equal(stdio.code, 0, stdio.stderr);
  assert.match(stdio.stdout, /^Added MCP server "docs" to .*config\.toml$/m);
  const http = await env.run("add", "web", "--url", "https://mcp.example.com/mcp");
  assert.equal(http.code, 0, http.stderr);
  assert.match(http.stdout, /run "interpreter mcp login web"/);
  const added = '\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n' +
    'env = { DOCS_KEY = "s3cret" }\n\n[mcp_servers.web]\nurl = "https://mcp.example.com/mcp"\n';
  assert.equal(await Deno.readTextFile(env.file), CONFIG + added);
  if (Deno.build.os !== "windows") assert.equal((await Deno.stat(env.file)).mode! & 0o777, 0o600);

  const [list, text, get, getJson] = await Promise.all([
    env.run("list", "--json"),
    env.run("list"),
    env.run("get", "docs"),
    env.run("get", "docs", "--json"),
  ]);
  assert.equal(list.code, 0, list.stderr);
  const servers = JSON.parse(list.stdout);
  assert.deepEqual(servers.map((s: { name: string }) => s.name), ["docs", "handmade", "web"]);
  assert.deepEqual(servers[0], {
    name: "docs",
    enabled: true,
    disabled_reason: null,
    transport: {
      type: "stdio",
      command: "npx",
      args: ["-y", "docs-mcp"],
      env: { DOCS_KEY: "*****" },
      env_vars: [],
      cwd: null,
    },
    startup_timeout_sec: null,
    tool_timeout_sec: null,
  });
  assert.deepEqual(servers[2].transport, {
    type: "streamable_http",
    url: "https://mcp.example.com/mcp",
    bearer_token_env_var: null,
    http_headers: null,
    env_http_headers: null,
  });
  assert.match(text.stdout, /^docs {6}npx {6}-y docs-mcp {3}DOCS_KEY=\*\*\*\*\* +- +enabled$/m);
  assert.doesNotMatch(list.stdout + text.stdout + get.stdout + getJson.stdout, /s3cret/);
  assert.equal(getJson.code, 0, getJson.stderr);
  assert.deepEqual(JSON.parse(getJson.stdout).transport.env, { DOCS_KEY: "*****" });
  assert.match(get.stdout, /^docs\n {2}enabled: true\n {2}transport: stdio\n {2}command: npx\n/);

  const removed = await env.run("remove", "docs");
  assert.equal(removed.code, 0, removed.stderr);
  const removedAll = await env.run("remove", "web");
  assert.equal(removedAll.code, 0, removedAll.stderr);
  assert.equal(await Deno.readTextFile(env.file), CONFIG);
  const handmade = await env.run("remove", "handmade");
  assert.equal(handmade.code, 0, handmade.stderr);
  assert.equal(
    await Deno.readTextFile(env.file),
    CONFIG.replace(/# A server written by hand[^]*?\n\n\[sandbox/, "[sandbox"),
  );
});

Deno.test("interpreter mcp refuses bad input with exit 2, an error, a hint, and no change", async () => {
  await using env = await mcpHome();
  const cases: Array<[string[], RegExp]> = [
    [
      ["add", "handmade", "--", "x"],
      /^error: MCP server "handmade" already exists in ".*"\nhint: Remove it first/,
    ],
    [
      ["add", "my.docs", "--", "x"],
      /^error: Invalid MCP server name "my\.docs": .*\nhint: .*try "my_docs"/,
    ],
    [
      ["add", "d", "--env", "TOKEN", "--", "x"],
      /^error: Invalid --env "TOKEN": expected KEY=VALUE\nhint: /,
    ],
    [["add", "d"], /^error: Missing the server to add: a command after -- or --url\nhint: /],
    [["add", "d", "--url", "https://h/mcp", "--", "x"], /^error: Cannot add a server with both/],
    [
      ["get", "nope"],
      /^error: No MCP server "nope" is configured\nhint: The configured servers: handmade/,
    ],
    [
      ["remove", "handmad"],
      /^error: No MCP server "handmad" is configured\nhint: Did you mean "handmade"\?/,
    ],
    [[], /error: Missing the command after "interpreter mcp"\nhint: Run "interpreter help mcp"/],
  ];
  const [help, ...results] = await Promise.all([
    env.interpreter("help", "mcp"),
    ...cases.map(([args]) => env.run(...args)),
  ]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: interpreter mcp \[options\] \[command\]/);
  for (const command of ["add", "list", "get", "remove", "login", "logout"]) {
    assert.match(help.stdout, new RegExp(`^ {2}${command} `, "m"));
  }
  for (const [i, result] of results.entries()) {
    assert.equal(result.code, 2, `${cases[i][0].join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, cases[i][1]);
  }
  assert.equal(await Deno.readTextFile(env.file), CONFIG);
});
