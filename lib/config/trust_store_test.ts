import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { loadConfig } from "./load.ts";
import { projectMcpDefinitions } from "./project_definitions.ts";
import {
  grantTrust,
  LEGACY_HOOK_TRUST_FILE,
  readProjectTrust,
  TRUST_FILE,
  TRUST_SOURCE_ENV,
} from "./trust_store.ts";

async function tempHome(): Promise<{ home: string } & AsyncDisposable> {
  const home = await Deno.makeTempDir({ prefix: "oi_trust_" });
  return { home, [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
}

const noEnv = {};

Deno.test("hooks_trust.json is carried into trust.json: its grants count, then are written whole", async () => {
  await using t = await tempHome();
  const legacy = join(t.home, LEGACY_HOOK_TRUST_FILE);
  const legacyText = JSON.stringify({ version: 1, projects: { "/repo": ["aaa", "bbb"] } });
  await Deno.writeTextFile(legacy, legacyText);
  const before = await readProjectTrust(t.home, "/repo", noEnv);
  assert.deepEqual([...before.definitions].sort(), ["aaa", "bbb"]);
  assert.equal(before.project, false, "hook grants do not trust the project itself");
  await assert.rejects(
    Deno.stat(join(t.home, TRUST_FILE)),
    Deno.errors.NotFound,
    "reading writes nothing",
  );

  await grantTrust(t.home, "/repo", { definitions: ["ccc"] });
  const stored = JSON.parse(await Deno.readTextFile(join(t.home, TRUST_FILE)));
  assert.deepEqual(stored, {
    version: 2,
    projects: { "/repo": { definitions: ["aaa", "bbb", "ccc"] } },
  });
  assert.equal((await Deno.stat(join(t.home, TRUST_FILE))).mode! & 0o777, 0o600);
  assert.equal(await Deno.readTextFile(legacy), legacyText, "the old file is left as it was");
  // Once trust.json exists it alone counts.
  await Deno.writeTextFile(legacy, JSON.stringify({ version: 1, projects: { "/repo": ["zzz"] } }));
  assert.deepEqual(
    [...(await readProjectTrust(t.home, "/repo", noEnv)).definitions],
    ["aaa", "bbb", "ccc"],
  );
});

Deno.test("a bad trust file is an error naming it, and nothing is written over it", async () => {
  await using t = await tempHome();
  const legacy = join(t.home, LEGACY_HOOK_TRUST_FILE);
  await Deno.writeTextFile(legacy, "{ not json");
  for (
    const call of [() => readProjectTrust(t.home, "/r", noEnv), () => grantTrust(t.home, "/r", {})]
  ) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.ok(error.message.includes(legacy), error.message);
      assert.match(error.hint ?? "", /Fix or remove/);
      return true;
    });
  }
  assert.equal(await Deno.readTextFile(legacy), "{ not json");
  await assert.rejects(Deno.stat(join(t.home, TRUST_FILE)), Deno.errors.NotFound);

  const file = join(t.home, TRUST_FILE);
  await Deno.writeTextFile(file, JSON.stringify({ version: 2, projects: { "/r": ["a"] } }));
  await assert.rejects(grantTrust(t.home, "/r", { project: true }), (error: unknown) => {
    assert.ok(error instanceof ConfigError && error.message.includes(file));
    return true;
  });
  // Control: a good file takes the grant.
  await Deno.writeTextFile(file, JSON.stringify({ version: 2, projects: {} }));
  await grantTrust(t.home, "/r", { project: true });
  assert.equal((await readProjectTrust(t.home, "/r", noEnv)).project, true);
});

Deno.test("a copy takes the trust of the source repository its environment names", async () => {
  await using t = await tempHome();
  await grantTrust(t.home, "/src/repo", { project: true, definitions: ["k1"] });
  const copy = await readProjectTrust(t.home, "/copies/one", noEnv);
  assert.equal(copy.project, false, "control: a copy alone is not trusted");
  const sourced = await readProjectTrust(t.home, "/copies/one", {
    [TRUST_SOURCE_ENV]: "/src/repo",
  });
  assert.equal(sourced.project, true);
  assert.deepEqual([...sourced.definitions], ["k1"]);
});

Deno.test("interpreter trust's grant makes the loader read the project config", async () => {
  await using t = await tempHome();
  const repo = join(t.home, "repo");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await Deno.mkdir(join(repo, ".openinterpreter"));
  await Deno.writeTextFile(join(repo, ".openinterpreter", "config.toml"), 'model = "project"\n');
  const opts = {
    cwd: repo,
    env: { OPENINTERPRETER_HOME: join(t.home, "home") },
    flags: {},
    overrides: [],
  };
  const before = await loadConfig(opts);
  assert.equal(before.trust, undefined);
  assert.notEqual(before.values.model, "project");
  assert.ok(before.warnings.some((w) => w.includes('run "interpreter trust" there')));
  await grantTrust(join(t.home, "home"), repo, { project: true });
  const after = await loadConfig(opts);
  assert.equal(after.trust, "trusted");
  assert.equal(after.values.model, "project");
});

Deno.test("a project MCP server is the project's when any of its values comes from the project file", async () => {
  await using t = await tempHome();
  const repo = join(t.home, "repo");
  const home = join(t.home, "home");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await Deno.mkdir(join(repo, ".openinterpreter"));
  await Deno.mkdir(home);
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n` +
      '[mcp_servers.mine]\ncommand = "my-server"\n[mcp_servers.shared]\ncommand = "shared"\n',
  );
  const projectFile = join(repo, ".openinterpreter", "config.toml");
  const write = (text: string) => Deno.writeTextFile(projectFile, text);
  const load = () =>
    loadConfig({ cwd: repo, env: { OPENINTERPRETER_HOME: home }, flags: {}, overrides: [] });
  await write(
    '[mcp_servers.own]\ncommand = "srv"\nargs = ["--dir", "a b"]\nenv = { TOKEN = "x" }\n' +
      '[mcp_servers.shared]\nenv = { LD_PRELOAD = "/tmp/x.so" }\n' +
      '[mcp_servers.off]\ncommand = "off"\nenabled = false\n',
  );
  const first = await projectMcpDefinitions(await load());
  assert.deepEqual(first.map((d) => [d.name, d.command, d.source]), [
    ["shared", "LD_PRELOAD=/tmp/x.so shared", projectFile],
    ["own", "TOKEN=x srv --dir 'a b'", projectFile],
  ]);
  const again = await projectMcpDefinitions(await load());
  assert.deepEqual(again.map((d) => d.key), first.map((d) => d.key), "the digest is stable");
  await write(
    '[mcp_servers.own]\ncommand = "srv"\nargs = ["--dir", "a c"]\nenv = { TOKEN = "x" }\n' +
      '[mcp_servers.shared]\nenv = { LD_PRELOAD = "/tmp/x.so" }\n',
  );
  const changed = await projectMcpDefinitions(await load());
  assert.equal(changed[0].key, first[0].key, "control: an unchanged definition keeps its digest");
  assert.notEqual(changed[1].key, first[1].key, "a changed argument changes the digest");
});
