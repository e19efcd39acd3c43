/**
 * `interpreter doctor [--json]` through the CLI (issue 34, item 9): with bubblewrap hidden it
 * fails the sandbox checks with the install command and exits 1; the provider in use answers
 * its models list; an MCP server of the user's config starts, a broken one fails with its fix,
 * and a project's server the user has not trusted is listed, not started; a key is named by
 * its variable and its value never shown.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serversToml, testServer } from "../mcp/_servers.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix: string | null;
  needed: boolean;
}

function byName(checks: Check[], name: string): Check {
  const found = checks.find((c) => c.name === name);
  assert.ok(found, `no check "${name}" in ${checks.map((c) => c.name).join(", ")}`);
  return found;
}

Deno.test("doctor --json with bubblewrap hidden: the sandbox fails with its fix, exit 1", async () => {
  await using fake = await startFakeProvider([]);
  const repo = await fixtureRepo("habits");
  const marker = await Deno.makeTempDir({ prefix: "oi-doctor-mcp-" });
  const servers = serversToml({
    probe: testServer("plain", marker),
    broken: { command: "/nonexistent/mcp-server" },
  });
  const trusted = `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n${servers}\n`;
  const home = await fakeHome(fake.baseUrl, "chat", trusted);
  await Deno.mkdir(join(repo, ".openinterpreter"));
  await Deno.writeTextFile(
    join(repo, ".openinterpreter", "config.toml"),
    serversToml({ project_tool: { command: "/nonexistent/project-server" } }),
  );
  try {
    const env = { OPENINTERPRETER_BWRAP: "/nonexistent/bwrap", FAKE_API_KEY: "sk-doctor-secret" };
    const out = await interpreter(["doctor", "--json"], { cwd: repo, home, env });
    assert.equal(out.code, 1, out.stderr);
    assert.ok(!out.stdout.includes("sk-doctor-secret"), "the key's value is never shown");
    const report = JSON.parse(out.stdout) as { ok: boolean; checks: Check[] };
    assert.equal(report.ok, false);
    const sandbox = byName(report.checks, "sandbox");
    assert.equal(sandbox.ok, false);
    assert.equal(sandbox.needed, true);
    assert.match(sandbox.detail, /bubblewrap is not installed/);
    assert.match(sandbox.fix!, /install -y bubblewrap|apk add bubblewrap|pacman -S/);
    assert.equal(byName(report.checks, "bubblewrap").ok, false);
    const provider = byName(report.checks, "provider fake (in use)");
    assert.equal(provider.ok, true, provider.detail);
    assert.match(provider.detail, /key from FAKE_API_KEY/);
    // One GET of the models list with the key, and nothing generated.
    assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), ["GET /v1/models"]);
    assert.equal(fake.requests[0].headers.authorization, "Bearer sk-doctor-secret");
    const probe = byName(report.checks, "mcp probe");
    assert.equal(probe.ok, true, probe.detail);
    assert.match(probe.detail, /^started; [1-9]\d* tool\(s\)$/);
    const broken = byName(report.checks, "mcp broken");
    assert.equal(broken.ok, false);
    assert.match(broken.fix!, /\[mcp_servers\.broken\]/);
    const held = byName(report.checks, "mcp project_tool");
    assert.match(held.detail, /not started: a project server you have not trusted/);
    assert.match(byName(report.checks, "config").detail, /files read: .*config\.toml/);
    assert.match(byName(report.checks, "terminal").detail, /stdout is not a terminal/);
  } finally {
    for (const dir of [repo, home, marker]) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor without the key of the provider in use names its variable and exits 1", async () => {
  await using fake = await startFakeProvider([]);
  const home = await fakeHome(fake.baseUrl, "chat");
  const repo = await fixtureRepo("habits");
  try {
    const out = await interpreter(["doctor"], { cwd: repo, home, env: { FAKE_API_KEY: "" } });
    assert.equal(out.code, 1, out.stderr);
    assert.match(out.stdout, /FAIL provider fake \(in use\): no key: FAKE_API_KEY is not set/);
    assert.match(out.stdout, /fix: export FAKE_API_KEY=\.\.\./);
    assert.match(out.stdout, /^ok {3}version: interpreter /m);
    assert.match(out.stdout, /cannot start without: provider fake \(in use\)$/m);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
