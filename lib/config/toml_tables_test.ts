import assert from "node:assert/strict";
import { parse } from "smol-toml";
import { scanToml } from "./_toml_scan.ts";
import { appendTable, removeTable, replaceTable, tableSetOutsideHeaders } from "./toml_tables.ts";

const DOCS = ["mcp_servers", "docs"];

/** Parsed TOML as plain objects (the parser's tables have no prototype). */
function plain(value: unknown): { mcp_servers: Record<string, unknown> } {
  return JSON.parse(JSON.stringify(value));
}

/** A config with comments everywhere, arrays and strings that look like headers. */
const CONFIG = `# interpreter's configuration
model = "gpt-5" # the default model
args = [
  "[mcp_servers.docs]", # not a header
  [1, 2],
]
notes = """
[mcp_servers.docs]
not a header either \\"""
"""

# The documentation server.
[mcp_servers.docs]
command = "npx" # launcher
args = ["-y", "docs-server"]
env = { TOKEN = "x" }

[features]
# about features
web = true

# Docs' tool approvals.
[mcp_servers.docs.tools.search]
approval_mode = "prompt"

# Another server, kept.
[mcp_servers.other]
url = 'https://example.com/mcp'
`;

const DOCS_TABLE = '[mcp_servers.docs]\ncommand = "npx" # launcher\n' +
  'args = ["-y", "docs-server"]\nenv = { TOKEN = "x" }\n';
const DOCS_TOOLS =
  '# Docs\' tool approvals.\n[mcp_servers.docs.tools.search]\napproval_mode = "prompt"\n\n';

Deno.test("scanToml() tells headers from look-alikes inside strings and arrays", () => {
  const statements = scanToml(CONFIG);
  const headers = statements.filter((s) => s.kind === "header").map((s) => [s.line, s.path]);
  assert.deepEqual(headers, [
    [13, ["mcp_servers", "docs"]],
    [18, ["features"]],
    [23, ["mcp_servers", "docs", "tools", "search"]],
    [27, ["mcp_servers", "other"]],
  ]);
  const args = statements.find((s) => s.kind === "pair" && s.key[0] === "args");
  assert.deepEqual([args?.line, CONFIG.slice(args!.start, args!.end).split("\n").length], [3, 5]);
  assert.equal(statements.map((s) => CONFIG.slice(s.start, s.end)).join(""), CONFIG);
});

Deno.test("scanToml() reads quoted keys, dotted keys, CRLF and a last line without newline", () => {
  const text = "a = '''it's\n[x]\n'''\n[ \"mcp_servers\" . 'a b' ]\r\nx.y = { z = 1 }\r\n" +
    '"q.r" = 1\r\nlast = "x"';
  const shapes = scanToml(text).map((s) =>
    s.kind === "header" ? s.path : s.kind === "pair" ? [...s.key, s.inline] : s.kind
  );
  assert.deepEqual(shapes, [
    ["a", false],
    ["mcp_servers", "a b"],
    ["x", "y", true],
    ["q.r", false],
    ["last", false],
  ]);
});

Deno.test("removeTable() cuts a table, its subtables and their comments, and nothing else", () => {
  const out = removeTable(CONFIG, DOCS);
  const expected = CONFIG.replace(`# The documentation server.\n${DOCS_TABLE}\n`, "")
    .replace(DOCS_TOOLS, "");
  assert.equal(out, expected);
  assert.deepEqual(Object.keys(plain(parse(out!)).mcp_servers), ["other"]);
  assert.equal(removeTable(CONFIG, ["mcp_servers", "nope"]), undefined);
});

Deno.test("removeTable() of the last table leaves one newline at the end", () => {
  const text = 'model = "m"\n\n[mcp_servers.a]\ncommand = "x"\n\n\n';
  assert.equal(removeTable(text, ["mcp_servers", "a"]), 'model = "m"\n');
  const only = '[mcp_servers.a]\ncommand = "x"\n# about a\n';
  assert.equal(removeTable(only, ["mcp_servers", "a"]), "");
});

Deno.test("removeTable() leaves the comments right above the next header to that header", () => {
  const text = '[mcp_servers.a]\ncommand = "x"\n# about b\n[b]\nk = 1\n';
  assert.equal(removeTable(text, ["mcp_servers", "a"]), "# about b\n[b]\nk = 1\n");
  const crlf = 'k = 1\r\n\r\n[mcp_servers.a]\r\ncommand = "x"\r\n\r\n[b]\r\n';
  assert.equal(removeTable(crlf, ["mcp_servers", "a"]), "k = 1\r\n\r\n[b]\r\n");
});

Deno.test("appendTable() adds a table after one blank line, in the file's line endings", () => {
  const table = '[mcp_servers.new]\ncommand = "x"\n';
  assert.equal(appendTable("", table), table);
  assert.equal(appendTable("a = 1", table), `a = 1\n\n${table}`);
  assert.equal(appendTable("a = 1\n", table), `a = 1\n\n${table}`);
  assert.equal(appendTable("a = 1\n\n", table), `a = 1\n\n${table}`);
  assert.equal(appendTable("a = 1\r\n", table), `a = 1\r\n\r\n${table.replaceAll("\n", "\r\n")}`);
  const out = appendTable(CONFIG, table);
  assert.equal(out.slice(0, CONFIG.length), CONFIG);
  assert.deepEqual(plain(parse(out)).mcp_servers, {
    ...plain(parse(CONFIG)).mcp_servers,
    new: { command: "x" },
  });
});

Deno.test("replaceTable() puts the new table where the old one was, keeping its comment", () => {
  const out = replaceTable(CONFIG, DOCS, '[mcp_servers.docs]\ncommand = "uvx"\n');
  const expected = CONFIG.replace(DOCS_TABLE, '[mcp_servers.docs]\ncommand = "uvx"\n')
    .replace(DOCS_TOOLS, "");
  assert.equal(out, expected);
  assert.equal(replaceTable(CONFIG, ["nope"], "[nope]\n"), undefined);
});

Deno.test("tableSetOutsideHeaders() finds dotted keys and inline tables that set a table", () => {
  assert.equal(tableSetOutsideHeaders(CONFIG, DOCS), undefined);
  assert.equal(tableSetOutsideHeaders('a = 1\nmcp_servers.docs.command = "x"\n', DOCS), 2);
  assert.equal(tableSetOutsideHeaders('[mcp_servers]\ndocs = { command = "x" }\n', DOCS), 2);
  assert.equal(tableSetOutsideHeaders('[mcp_servers]\ndocs.command = "x"\n', DOCS), 2);
  assert.equal(tableSetOutsideHeaders('mcp_servers = { docs = { url = "u" } }\n', DOCS), 1);
  assert.equal(
    tableSetOutsideHeaders('[mcp_servers]\nother = { command = "x" }\n', DOCS),
    undefined,
  );
  assert.equal(
    tableSetOutsideHeaders('[mcp_servers.docs]\ntools.s.approval_mode = "prompt"\n', DOCS),
    undefined,
  );
});

Deno.test("removeTable() keeps a byte order mark at the start of the text", () => {
  const text = '\ufeff[mcp_servers.a]\ncommand = "x"\n\n[b]\nk = 1\n';
  assert.equal(removeTable(text, ["mcp_servers", "a"]), "\ufeff[b]\nk = 1\n");
});
