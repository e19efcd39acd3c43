/**
 * The ACP registry entry and Harbor's ACP route: every entry in integrations/acp-registry/
 * validates against our copy of the registry's schema, names the release assets the build makes
 * for deno.json's version, and Harbor's per-harness entries carry `--harness`; `interpreter acp
 * --harness qwen-code`, started by the ACP SDK's client, reports qwen-code in its config options,
 * as does `INTERPRETER_HARNESS=qwen-code` (with `INTERPRETER_MODEL`, `INTERPRETER_EFFORT` and a flag that wins over its
 * variable), and `initialize` offers an auth method the registry accepts, the terminal one (`acp --login`, the
 * REPL) only to a client that enables it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { Ajv } from "ajv";
import { TARGETS } from "../../scripts/compile.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { startAgent } from "./_acp_client.ts";
import { fakeHome, fixtureRepo, LAUNCHER, run, tempDirs } from "./_harness_env.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const DIR = join(ROOT, "integrations/acp-registry");
type Entry = {
  id: string;
  name: string;
  version: string;
  description: string;
  distribution: { binary: Record<string, { archive: string; cmd: string; args?: string[] }> };
};
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

const validate = new Ajv({ allErrors: true, formats: { uri: (s: string) => URL.canParse(s) } })
  .compile(await readJson(join(DIR, "agent.schema.json")));
function problems(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

Deno.test("the registry entries validate and name this version's release assets", async () => {
  const { version } = await readJson(join(ROOT, "deno.json"));
  const main: Entry = await readJson(join(DIR, "interpreter/agent.json"));
  assert.deepEqual(problems(main), []);
  assert.equal(main.id, "interpreter");
  assert.equal(main.version, version);
  const icon = await Deno.readTextFile(join(DIR, "interpreter/icon.svg"));
  assert.match(icon, /width="16" height="16"/);
  assert.doesNotMatch(icon.replaceAll("currentColor", ""), /#[0-9a-f]{3,6}\b|rgb\(/i);
  const assets = new Set(TARGETS.map((t) => t.asset));
  const platforms = Object.keys(main.distribution.binary);
  for (const os of ["darwin", "linux", "windows"]) {
    assert.ok(platforms.some((p) => p.startsWith(os)), `no ${os} binary`);
  }
  for (const target of Object.values(main.distribution.binary)) {
    const asset = target.archive.split("/").pop()!;
    assert.ok(assets.has(asset), `${asset} is no release asset`);
    assert.equal(
      target.archive,
      `https://github.com/openinterpreter/interpreter/releases/download/v${version}/${asset}`,
    );
    assert.equal(target.cmd, `./${asset}`);
    assert.deepEqual(target.args, ["acp"]);
  }
  // A schema that accepted anything would prove nothing.
  assert.notDeepEqual(problems({ ...main, id: "Interpreter" }), []);
  const linux = main.distribution.binary["linux-x86_64"];
  const bad = { ...main, distribution: { binary: { "linux-x64": linux } } };
  assert.notDeepEqual(problems(bad), []);
});

Deno.test("Harbor's entries: one per built-in harness, the main entry with --harness", async () => {
  const main: Entry = await readJson(join(DIR, "interpreter/agent.json"));
  const harnesses: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, "harnesses"))) {
    const spec = await Deno.stat(join(ROOT, "harnesses", e.name, "harness.toml")).catch(() => null);
    if (spec?.isFile) harnesses.push(e.name);
  }
  assert.ok(harnesses.includes("qwen-code"));
  for (const harness of harnesses) {
    const entry: Entry = await readJson(join(DIR, "harbor", `${harness}.json`));
    assert.deepEqual(problems(entry), [], harness);
    assert.equal(entry.id, `interpreter-${harness}`);
    const args = ["acp", "--harness", harness, "--skip-git-repo-check"];
    const container = ["-s", "danger-full-access", "-a", "never"];
    for (const [platform, target] of Object.entries(entry.distribution.binary)) {
      const { archive, cmd } = main.distribution.binary[platform];
      assert.deepEqual(target, { archive, cmd, args: [...args, ...container] }, harness);
    }
    assert.deepEqual(
      Object.keys(entry.distribution.binary),
      Object.keys(main.distribution.binary),
    );
    assert.equal(entry.version, main.version);
  }
});

Deno.test("acp takes its harness from --harness or INTERPRETER_HARNESS, the flag first", async (t) => {
  await using model = startFakeProvider([]);
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  /** The config options and auth methods of a session in an agent started so. */
  async function opened(args: string[], vars: Record<string, string> = {}, terminal = false) {
    const client = startAgent(args, { cwd: repo, home, vars });
    try {
      const init = await client.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { auth: { terminal } },
      });
      const { configOptions } = await client.agent.request(acp.methods.agent.session.new, {
        cwd: repo,
        mcpServers: [],
      });
      const value = (id: string) => configOptions?.find((o) => o.id === id)?.currentValue;
      const settings = { model: value("model"), effort: value("reasoning_effort") };
      return { harness: value("harness"), ...settings, init };
    } finally {
      const status = await client.close();
      assert.equal(status.code, 0, client.stderr());
    }
  }

  await t.step("--harness qwen-code", async () => {
    const { harness, init } = await opened(["--harness", "qwen-code"]);
    assert.equal(harness, "qwen-code");
    // The registry lists an agent whose initialize offers an "agent" (no type) or terminal method.
    const types = (init.authMethods ?? []).map((m) => (m as { type?: string }).type ?? "agent");
    assert.ok(types.includes("agent"), types.join());
    assert.ok(!types.includes("terminal"), "a terminal method the client did not enable");
  });
  await t.step("INTERPRETER_HARNESS, INTERPRETER_MODEL and INTERPRETER_EFFORT", async () => {
    const vars = {
      INTERPRETER_HARNESS: "qwen-code",
      INTERPRETER_MODEL: "other-model",
      INTERPRETER_EFFORT: "high",
    };
    const { harness, model, effort, init } = await opened([], vars, true);
    assert.equal(harness, "qwen-code");
    assert.equal(model, "fake/other-model");
    assert.equal(effort, "high");
    const terminal = (init.authMethods ?? []).find((m) => "type" in m && m.type === "terminal");
    assert.deepEqual(terminal && "args" in terminal ? terminal.args : undefined, ["--login"]);
  });
  await t.step("--harness wins over INTERPRETER_HARNESS", async () => {
    const { harness } = await opened(["--harness", "native"], { INTERPRETER_HARNESS: "qwen-code" });
    assert.equal(harness, "native");
  });
  await t.step(
    "the terminal auth method's --login opens the REPL, with the variables",
    async () => {
      const env = {
        OPENINTERPRETER_HOME: home,
        FAKE_API_KEY: "k",
        INTERPRETER_HARNESS: "qwen-code",
      };
      const login = await run(LAUNCHER, ["acp", "--login"], repo, env);
      assert.equal(login.code, 0, login.stderr);
      assert.match(login.stdout, /harness qwen-code/);
      const served = await run(LAUNCHER, ["acp"], repo, env);
      assert.equal(served.stdout, "", "without --login, ACP (which says nothing unasked)");
    },
  );
  await t.step("without either, the automatic choice (the control)", async () => {
    const { harness } = await opened([]);
    assert.notEqual(harness, "qwen-code");
  });
});
