import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import {
  configLayerOf,
  mcpServerTable,
  readConfigText,
  sameToml,
  withMcpServer,
  withoutMcpServer,
  writeConfigText,
} from "./mcp_servers_file.ts";
import type { McpServerEntry } from "./schema.ts";

const FILE = "/home/u/.openinterpreter/config.toml";

const CONFIG = `# My settings
model = "gpt-5"  # keep this comment

[mcp_servers.docs]  # docs
command = "npx"
args = ["-y", "docs-server"]

[sandbox_workspace_write]
network_access = true
`;

Deno.test("mcpServerTable() writes every value so that it reads back the same", () => {
  const entry: McpServerEntry = {
    command: 'C:\\Tools\\"odd" \x7f\u00e9',
    args: ["--flag=1", "tab\there"],
    env: { "MY KEY": "v", PLAIN: "" },
    startup_timeout_sec: 2.5,
    enabled: false,
    tools: { search: { approval_mode: "prompt" } },
  };
  const table = mcpServerTable("my-server_1", entry);
  assert.match(table, /^\[mcp_servers\.my-server_1\]\ncommand = /);
  assert.match(
    table,
    /\n\n\[mcp_servers\.my-server_1\.tools\.search\]\napproval_mode = "prompt"\n$/,
  );
  const layer = configLayerOf(table, FILE);
  assert.deepEqual(JSON.parse(JSON.stringify(layer.mcp_servers)), { "my-server_1": entry });
});

Deno.test("withMcpServer() appends the table and keeps every other byte", () => {
  const entry = { url: "https://mcp.example.com/mcp", bearer_token_env_var: "EXAMPLE_TOKEN" };
  const out = withMcpServer(CONFIG, FILE, { name: "web", entry });
  assert.equal(
    out,
    `${CONFIG}\n[mcp_servers.web]\nurl = "https://mcp.example.com/mcp"\n` +
      `bearer_token_env_var = "EXAMPLE_TOKEN"\n`,
  );
  assert.equal(withMcpServer("", FILE, { name: "a", entry }).split("\n")[0], "[mcp_servers.a]");
});

Deno.test("withMcpServer() refuses a file whose [mcp_servers] is an inline table", () => {
  const text = 'model = "m"\nmcp_servers = { docs = { command = "npx" } }\n';
  assert.throws(() => withMcpServer(text, FILE, { name: "b", entry: { command: "x" } }), {
    name: "ConfigError",
    message: `Cannot add MCP server "b" in "${FILE}" safely: [mcp_servers] is set by a dotted ` +
      "key or an inline table at line 2",
  });
});

Deno.test("withoutMcpServer() cuts the server's table and nothing else", () => {
  const out = withoutMcpServer(CONFIG, FILE, "docs");
  assert.equal(
    out,
    '# My settings\nmodel = "gpt-5"  # keep this comment\n\n' +
      "[sandbox_workspace_write]\nnetwork_access = true\n",
  );
});

Deno.test("withoutMcpServer() refuses a server set by dotted keys or an inline table", () => {
  for (
    const [text, line] of [
      ['[mcp_servers]\ndocs = { command = "npx" }\n', 2],
      ['model = "m"\nmcp_servers.docs.command = "npx"\n', 2],
    ] as const
  ) {
    assert.throws(() => withoutMcpServer(text, FILE, "docs"), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, new RegExp(`inline table at line ${line}$`));
      assert.match(error.hint!, /Edit ".*" by hand, or write each server there as its own/);
      return true;
    });
  }
});

Deno.test("writeConfigText() replaces the file a symlink points to, mode 0600", async () => {
  await using tree = await tempTree({ "home/real/config.toml": CONFIG });
  const link = join(tree.home, "config.toml");
  await Deno.symlink(join(tree.home, "real", "config.toml"), link);
  const text = withoutMcpServer(await readConfigText(link), link, "docs");
  await writeConfigText(link, text);
  assert.ok((await Deno.lstat(link)).isSymlink);
  assert.equal(await Deno.readTextFile(join(tree.home, "real", "config.toml")), text);
  if (Deno.build.os !== "windows") {
    assert.equal((await Deno.stat(link)).mode! & 0o777, 0o600);
  }
  assert.equal(await readConfigText(join(tree.home, "none.toml")), "");
  assert.deepEqual([...Deno.readDirSync(join(tree.home, "real"))].map((e) => e.name), [
    "config.toml",
  ]);
});

Deno.test("withMcpServer() adds beside servers written inline in an [mcp_servers] table", () => {
  const text = '[mcp_servers]\nold = { command = "x" }\n\n[features]\nweb = true\n';
  const out = withMcpServer(text, FILE, { name: "new", entry: { command: "y" } });
  assert.equal(out, `${text}\n[mcp_servers.new]\ncommand = "y"\n`);
  assert.deepEqual(Object.keys(configLayerOf(out, FILE).mcp_servers!), ["old", "new"]);
});

Deno.test("withoutMcpServer() cuts a quoted header and keeps a URL's # and trailing comments", () => {
  const text = '[mcp_servers."docs"]\nurl = "https://h/mcp#x" # not a comment start\n\n' +
    "# about web\n[mcp_servers.web]\nurl = 'https://w/#'\n";
  assert.equal(
    withoutMcpServer(text, FILE, "docs"),
    "# about web\n[mcp_servers.web]\nurl = 'https://w/#'\n",
  );
});

Deno.test("sameToml() agrees with node:util's isDeepStrictEqual on parsed TOML documents", async () => {
  const { isDeepStrictEqual } = await import("node:util");
  const { parse } = await import("smol-toml");
  const texts = [
    'a = 1\n[t]\nb = [1, 2, { c = "x" }]',
    'a = 1\n[t]\nb = [1, 2, { c = "y" }]',
    "a = 1\n[t]\nb = [1, 2]",
    "a = 2\n[t]\nb = [1, 2]",
    "a = -0.0\nb = nan",
    "a = 0.0\nb = nan",
    "d = 1979-05-27T07:32:00Z",
    "d = 1979-05-27T07:32:01Z",
    "d = 1979-05-27",
    "[t]\n[u]",
    "[t]\nx = {}",
  ];
  for (const [i, a] of texts.entries()) {
    // Control: a fresh parse of the same text is equal by both.
    assert.ok(sameToml(parse(a), parse(a)), a);
    for (const b of texts.slice(i + 1)) {
      const [x, y] = [parse(a), parse(b)];
      assert.equal(sameToml(x, y), isDeepStrictEqual(x, y), `${a} vs ${b}`);
      assert.ok(!sameToml(x, y), `${a} vs ${b}`);
    }
  }
});
