import assert from "node:assert/strict";
import { join } from "node:path";
import type { SetupContext } from "../sources.ts";
import { setupMcpDefinitions } from "./definitions.ts";
import { joinSetupMcpServers } from "./servers.ts";

/** A project and a home with other agents' MCP files, written for real. */
async function setup(): Promise<SetupContext & AsyncDisposable> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi-setup-mcp-" }));
  const root = join(dir, "repo");
  const userHome = join(dir, "home");
  const files: Record<string, unknown> = {
    "repo/.mcp.json": {
      mcpServers: {
        notes: { command: "notes-mcp", env: { TOKEN: "${NOTES_TOKEN}" } },
        mine: { command: "project-mine" },
        off: { command: "off-mcp" },
        "bad.name": { command: "x" },
        api: { url: "https://h/mcp" },
      },
    },
    "repo/.claude/settings.local.json": { disabledMcpjsonServers: ["off"] },
    "repo/.gemini/settings.json": { mcpServers: { tasks: { httpUrl: "https://h/${PATH_PART}" } } },
    "repo/.qwen/settings.json": {
      mcpServers: { old: { url: "https://h/sse" }, keep: { command: "k" }, drop: { command: "d" } },
      mcp: { excluded: ["dr*"] },
    },
    "repo/.cursor/mcp.json": { mcpServers: { web: { command: "${env:NOPE_BIN}" } } },
    "home/.claude.json": {
      mcpServers: { mine: { command: "user-mine" } },
      projects: { [root]: { mcpServers: { local: { command: "local-mcp" } } } },
    },
  };
  for (const [path, value] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), JSON.stringify(value));
  }
  await Deno.writeTextFile(
    join(root, "opencode.jsonc"),
    '{ // comments and trailing commas\n "mcp": { "search": { "type": "local", "command": ["s"], }, },\n}',
  );
  await Deno.writeTextFile(join(root, "opencode.json"), "{ broken");
  return {
    cwd: root,
    projectRoot: root,
    home: join(dir, "oi"),
    userHome,
    projectTrusted: true,
    importUser: new Set(["mcp"]),
    mcpServerIds: ["tasks"],
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("joinSetupMcpServers() adds other agents' servers after ours, the user's before the project's", async () => {
  await using ctx = await setup();
  const ours = { tasks: { command: "our-tasks" } };
  const env = { NOTES_TOKEN: "t0k", PATH_PART: "mcp" };
  const joined = await joinSetupMcpServers(ours, { ctx, env });
  assert.deepEqual(Object.keys(joined.servers).sort(), [
    "drop",
    "keep",
    "local",
    "mine",
    "notes",
    "off",
    "search",
    "tasks",
  ]);
  assert.deepEqual(joined.servers.tasks, { command: "our-tasks" }, "ours win");
  assert.equal(joined.servers.mine.command, "user-mine", "the user's win");
  assert.deepEqual(joined.servers.notes, {
    command: "notes-mcp",
    env: { CLAUDE_PROJECT_DIR: ctx.projectRoot, TOKEN: "t0k" },
  });
  assert.equal(joined.servers.off.enabled, false, "disabledMcpjsonServers");
  assert.equal(joined.servers.drop.enabled, false, "Qwen Code's mcp.excluded");
  assert.equal(joined.servers.keep.enabled, undefined);
  assert.equal(joined.sources.get("notes")?.file, join(ctx.projectRoot, ".mcp.json"));
  assert.equal(joined.sources.get("local")?.scope, "user");
  assert.equal(joined.sources.has("tasks"), false);
  const text = joined.warnings.join("\n");
  for (
    const expected of [
      /"bad\.name" .*rename it with only letters, digits, _ and -/,
      /"api" .*"url" but no "type": add "type": "http"/,
      /"old" of .*\.qwen\/settings\.json \(Qwen Code\): .*SSE/,
      /opencode\.json, line 1 is not valid JSON/,
      /The MCP server "tasks" of .*\.gemini\/settings\.json is not used: your \[mcp_servers\]/,
      /The MCP server "mine" of .*\.mcp\.json is not used: .*\.claude\.json defines the same/,
      /"web" of .*\.cursor\/mcp\.json uses \$NOPE_BIN, which is not set/,
      /Skipped the MCP server "web" .*command/,
    ]
  ) assert.match(text, expected);
  const without = await joinSetupMcpServers(ours, { ctx: { ...ctx, importUser: new Set() }, env });
  assert.equal(without.servers.local, undefined, "the user's files only with import_user_setups");
  assert.equal(without.sources.get("mine")?.scope, "project");
});

Deno.test("setupMcpDefinitions() lists the project's winning, enabled servers with a digest of each", async () => {
  await using ctx = await setup();
  const definitions = await setupMcpDefinitions(ctx);
  assert.deepEqual(definitions.map((d) => [d.kind, d.name, d.command]), [
    ["mcp_server", "notes", "TOKEN=${NOTES_TOKEN} notes-mcp"],
    ["mcp_server", "keep", "k"],
    ["mcp_server", "search", "s"],
    ["mcp_server", "web", "${env:NOPE_BIN}"],
  ]);
  const before = definitions[0].key;
  const file = join(ctx.projectRoot, ".mcp.json");
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(file, text.replace("notes-mcp", "other-mcp"));
  const after = await setupMcpDefinitions(ctx);
  assert.notEqual(after[0].key, before, "a changed definition needs trust again");
  assert.equal(after[3].key, definitions[3].key);
  assert.deepEqual(await setupMcpDefinitions({ ...ctx, projectTrusted: false }), []);
});
