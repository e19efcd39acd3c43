/**
 * MCP servers from other agents' files (issue 33 §3), through the real CLI against the fake
 * provider, in a copy of the shared fixture repository: its `.mcp.json` (Claude Code) and
 * `.gemini/settings.json` (Gemini CLI) each define a stdio server (`tools/echo-mcp.mjs`).
 * Before `interpreter trust --yes` neither starts and their tools are not offered (a warning
 * names `interpreter trust`); `interpreter mcp list` names each one's file and says it is not
 * trusted; after it both start, their tools are in the first request (Gemini's `excludeTools`
 * left out) and a call reaches the Claude Code one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter } from "./_harness_env.ts";
import { setupsRepo, trustedProject } from "./_setups_repo.ts";

/** The names of the tools request `i` offered. */
function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: Array<{ name?: string }> }).tools ?? [];
  return tools.map((tool) => tool.name ?? "");
}

/** The lines of `mcp list --json` for the fixture's servers. */
interface ListedServer {
  name: string;
  enabled: boolean;
  disabled_reason: string | null;
  source?: { file: string; vendor: string; trusted: boolean };
}

Deno.test("the .mcp.json and .gemini/settings.json servers start only after interpreter trust --yes", async () => {
  const repo = await setupsRepo();
  const script = [
    { reply: { text: "not yet" } },
    {
      expect: { tools_include: ["mcp__notes__echo", "mcp__tasks__echo"] },
      reply: { tool_calls: [{ name: "mcp__notes__echo", args: { text: "hi" } }] },
    },
    { expect: { last_tool_result_contains: "notes: hi" }, reply: { text: "echoed" } },
  ];
  await using fake = await startFakeProvider(
    parseScript(script.map((t) => JSON.stringify(t)).join("\n")),
  );
  const home = await fakeHome(
    fake.baseUrl,
    "messages",
    `harness = "claude-code"\napproval_policy = "never"\n` +
      trustedProject(repo),
  );
  const userHome = await Deno.makeTempDir({ prefix: "oi-user-" });
  const started = join(userHome, "started.log");
  // `deno` runs the fixture's servers; ECHO_MCP_LOG records each start.
  const path = `${join(Deno.execPath(), "..")}:${Deno.env.get("PATH") ?? ""}`;
  const env = { HOME: userHome, PATH: path, ECHO_MCP_LOG: started };
  const cli = (...args: string[]) => interpreter(args, { cwd: repo, home, env });
  try {
    const listed = await cli("mcp", "list", "--json");
    assert.equal(listed.code, 0, listed.stderr);
    const servers: ListedServer[] = JSON.parse(listed.stdout);
    const byName = new Map(servers.map((s) => [s.name, s]));
    assert.deepEqual(byName.get("notes")?.source, {
      file: join(repo, ".mcp.json"),
      vendor: "Claude Code",
      trusted: false,
    });
    assert.deepEqual(byName.get("tasks")?.source, {
      file: join(repo, ".gemini", "settings.json"),
      vendor: "Gemini CLI",
      trusted: false,
    });
    assert.match(byName.get("notes")?.disabled_reason ?? "", /interpreter trust/);
    assert.equal(byName.get("search")?.enabled, false, "opencode's enabled: false");
    const table = await cli("mcp", "list");
    assert.match(table.stdout, /^notes +deno .*untrusted +.*\/\.mcp\.json \(Claude Code\)$/m);
    assert.match(table.stdout, /^tasks +deno .*untrusted +.*settings\.json \(Gemini CLI\)$/m);
    // In a project with no trust decision they are listed too, untrusted.
    const undecidedHome = await fakeHome(fake.baseUrl, "messages");
    const undecided = await interpreter(["mcp", "list"], { cwd: repo, home: undecidedHome, env });
    await Deno.remove(undecidedHome, { recursive: true });
    assert.match(undecided.stdout, /^notes +deno .*untrusted +.*\/\.mcp\.json \(Claude Code\)$/m);

    const before = await cli("exec", "hello");
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stderr, /MCP servers "notes", "tasks"[^\n]* not trusted yet/);
    assert.match(before.stderr, /interpreter trust/);
    assert.doesNotMatch(toolNames(fake.requests[0].body).join(" "), /mcp__/);
    await assert.rejects(Deno.stat(started), Deno.errors.NotFound, "no server was started");

    const trusted = await cli("trust", "--yes");
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(
      trusted.stdout,
      /MCP server notes: .*deno run .*echo-mcp\.mjs notes\n +from .*\.mcp\.json/,
    );
    assert.match(trusted.stdout, /MCP server tasks: .*\n +from .*\.gemini\/settings\.json/);

    const after = await cli("exec", "echo hi");
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout.trim(), "echoed");
    assert.deepEqual(fake.failures, []);
    const offered = toolNames(fake.requests[1].body);
    assert.ok(offered.includes("mcp__notes__refuse"), offered.join(" "));
    assert.ok(!offered.includes("mcp__tasks__refuse"), "Gemini's excludeTools holds");
    const log = (await Deno.readTextFile(started)).split("\n").filter(Boolean).sort();
    assert.deepEqual(log, ["started notes", "started tasks"]);
    const relisted = JSON.parse((await cli("mcp", "list", "--json")).stdout) as ListedServer[];
    assert.equal(relisted.find((s) => s.name === "notes")?.source?.trusted, true);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(userHome, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
