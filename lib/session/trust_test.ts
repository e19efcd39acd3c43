import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../config/load.ts";
import { settleDefinitionTrust } from "./trust.ts";
import type { SessionIO } from "./types.ts";

/** A trusted project defining MCP servers `ids` in its config, with a config home of its own. */
async function project(ids: string[]) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_trust_" }));
  const repo = join(dir, "repo");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await Deno.mkdir(join(repo, ".openinterpreter"));
  const servers = ids.map((id) => `[mcp_servers.${id}]\ncommand = "echo"\nargs = ["${id}"]\n`);
  await Deno.writeTextFile(join(repo, ".openinterpreter", "config.toml"), servers.join("\n"));
  const env = { OPENINTERPRETER_HOME: join(dir, "home"), HOME: join(dir, "user") };
  const base = { cwd: repo, env, flags: {}, overrides: [], assumeTrusted: true };
  return {
    env,
    config: () => loadConfig(base),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

const noIo = { onEvent() {} } as unknown as SessionIO;

Deno.test("settleDefinitionTrust() warns once, kind by kind, and returns the servers left off", async () => {
  await using p = await project(["alpha", "beta"]);
  const config = await p.config();
  const warnings: string[] = [];
  const settle = (io: SessionIO, bypass = false) =>
    settleDefinitionTrust(config, {
      session: { bypassDefinitionTrust: bypass },
      io,
      env: p.env,
      warn: (message) => warnings.push(message),
    });
  assert.deepEqual([...await settle(noIo)], ["alpha", "beta"]);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0],
    /^MCP servers "alpha", "beta" of the project ".*repo" are not trusted yet and not started: .*"interpreter trust"$/,
  );
  // Control: the bypass flag and a yes leave nothing off and say nothing.
  assert.deepEqual([...await settle(noIo, true)], []);
  const yes = { ...noIo, trustDefinitions: () => Promise.resolve(true) } as SessionIO;
  assert.deepEqual([...await settle(yes)], []);
  assert.deepEqual([...await settle(noIo)], [], "trusted from now on");
  assert.equal(warnings.length, 1);
});
