/**
 * A project's MCP servers under per-definition trust: in a trusted project, a server its
 * `.openinterpreter/config.toml` defines is not started (and `/mcp` lists it as untrusted) until
 * the user trusts its exact definition with `interpreter trust` (which needs `--yes` without a
 * terminal), with the REPL's question at start, or with the bypass flag; a changed definition is
 * untrusted again. The server is a real stdio MCP server (`_test_server.ts`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sessionWorkspace } from "../../lib/session/_test_session.ts";
import {
  type DefinitionTrustQuestion,
  openSession,
  type Session,
  type SessionConfig,
} from "../../lib/session/open.ts";
import { interpreter } from "../e2e/_harness_env.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { assertNoProcesses, denoDir, processesWith, serversToml, testServer } from "./_servers.ts";
import { until } from "../e2e/_poll.ts";

/** Waits until server `id` of `session` is no longer starting; returns its status. */
async function settled(session: Session, id: string): Promise<string> {
  let status = "";
  // On time-out the caller's assertion says the server is still starting.
  await until(`server ${id} to be past starting`, () => {
    const view = session.mcp.servers().find((s) => s.id === id);
    assert.ok(view, `server ${id} is listed`);
    status = view.status;
    return status !== "starting";
  }, 30_000).catch(() => {});
  return status;
}

Deno.test("a trusted project's MCP server starts only once its definition is trusted, until it changes", async () => {
  await using model = await startFakeProvider([]);
  await using ws = await sessionWorkspace(model.baseUrl);
  const marker = join(ws.cwd, "server-marker");
  const projectFile = join(ws.cwd, ".openinterpreter", "config.toml");
  await Deno.mkdir(join(ws.cwd, ".openinterpreter"));
  // The server runs with the session's HOME, a temp folder: DENO_DIR finds the cached packages.
  const denoCache = await denoDir();
  const defineServer = (env: Record<string, string> = {}) =>
    Deno.writeTextFile(
      projectFile,
      serversToml({ proj: testServer("plain", marker, { env: { DENO_DIR: denoCache, ...env } }) }),
    );
  await defineServer();
  await Deno.writeTextFile(
    join(ws.home, "config.toml"),
    `\n[projects.${JSON.stringify(ws.cwd)}]\ntrust_level = "trusted"\n`,
    { append: true },
  );
  const asked: DefinitionTrustQuestion[] = [];
  const open = async (more: Partial<SessionConfig> = {}, answer?: boolean) => {
    const warnings: string[] = [];
    const session = await openSession({ cwd: ws.cwd, harness: "native", ...more }, {
      onEvent: (e) => e.type === "warning" && warnings.push(e.message),
      ...(answer === undefined ? {} : {
        trustDefinitions: (ask: DefinitionTrustQuestion) => {
          asked.push(ask);
          return Promise.resolve(answer);
        },
      }),
    }, { env: ws.env });
    return { session, warnings };
  };
  const cli = (args: string[]) => interpreter(["trust", ...args], { cwd: ws.cwd, home: ws.home });

  {
    const { session, warnings } = await open();
    await using _ = session;
    assert.equal(await settled(session, "proj"), "untrusted");
    assert.deepEqual(await processesWith(marker), [], "the untrusted server was not started");
    assert.ok(
      warnings.some((w) => /MCP server "proj" of the project .* is not trusted yet/.test(w)),
      warnings.join("\n"),
    );
  }
  const refused = await cli([]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stdout, /1\. MCP server proj: .*_test_server\.ts plain/);
  assert.match(refused.stderr, /stdin is not a terminal/);
  assert.match(refused.stderr, /interpreter trust --yes/);
  await assert.rejects(Deno.stat(join(ws.home, "trust.json")), Deno.errors.NotFound);

  const trusted = await cli(["--yes"]);
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.match(trusted.stdout, /Trusted the project .* and its 1 MCP server/);
  {
    const { session, warnings } = await open();
    await using _ = session;
    assert.equal(await settled(session, "proj"), "ready", "control: trusted, it starts");
    assert.deepEqual(warnings, []);
  }
  assert.match((await cli([])).stdout, /Nothing to trust: .* and so is 1 MCP server/);

  await defineServer({ CHANGED: "1" });
  {
    const { session } = await open({}, false);
    await using _ = session;
    assert.equal(await settled(session, "proj"), "untrusted", "a changed definition needs trust");
    assert.deepEqual(asked.map((a) => a.definitions.map((d) => [d.kind, d.name])), [
      [["mcp_server", "proj"]],
    ]);
  }
  {
    const { session } = await open({ bypassDefinitionTrust: true });
    await using _ = session;
    assert.equal(await settled(session, "proj"), "ready", "the bypass flag starts it");
  }
  {
    const { session } = await open({}, true);
    await using _ = session;
    assert.equal(await settled(session, "proj"), "ready", "a yes at start trusts and starts it");
  }
  {
    const { session } = await open();
    await using _ = session;
    assert.equal(await settled(session, "proj"), "ready", "the yes is kept");
  }
  await assertNoProcesses(marker);
});

Deno.test("interpreter trust --yes trusts an untrusted project itself and what it defines", async () => {
  await using model = await startFakeProvider([]);
  await using ws = await sessionWorkspace(model.baseUrl);
  await Deno.mkdir(join(ws.cwd, ".openinterpreter"));
  await Deno.writeTextFile(
    join(ws.cwd, ".openinterpreter", "config.toml"),
    'model = "from-project"\n' + serversToml({ proj: testServer("plain", "unused-marker") }),
  );
  const result = await interpreter(["trust", "--yes"], { cwd: ws.cwd, home: ws.home });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Trusting the project .* lets sessions there read/m);
  const stored = JSON.parse(await Deno.readTextFile(join(ws.home, "trust.json")));
  assert.equal(stored.projects[ws.cwd].trusted, true);
  assert.equal(stored.projects[ws.cwd].definitions.length, 1);
  const config = await interpreter(["debug", "config"], { cwd: ws.cwd, home: ws.home });
  assert.match(config.stdout, /^model = "from-project"/m, config.stdout);
});
