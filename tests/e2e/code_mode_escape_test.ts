/**
 * Code mode's `exec` source is hostile input: it runs in a fresh Deno process without
 * permissions inside the command sandbox, and its only way out is a nested tool call through the
 * session's checks. Here a scripted gpt-6 model tries every way out in one cell: the runtime's
 * own file and environment APIs, Node's, and the nested shell and patch tools aimed outside the
 * workspace and at the protected names. Nothing outside may change and no provider key may show.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSession } from "../../lib/session/open.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { escapeLayout } from "./_escape_attempts.ts";

const SECRET = "sk-code-mode-secret-4417";

function hostileSource(ws: string, outside: string): string {
  const target = join(outside, "escaped.txt");
  const patch = `*** Begin Patch\n*** Add File: ${
    join(ws, "link", "via-link.txt")
  }\n+pwned\n*** End Patch`;
  return [
    "const tries = {};",
    "const attempt = async (name, fn) => {",
    "  try { tries[name] = String(await fn()); } catch (e) { tries[name] = 'refused: ' + e; }",
    "};",
    `await attempt("deno write", () => Deno.writeTextFileSync(${
      JSON.stringify(target)
    }, "pwned"));`,
    `await attempt("globalThis.Deno", () => globalThis.Deno.env.get("FAKE_API_KEY"));`,
    'await attempt("node fs", async () => (await import("node:fs")).writeFileSync(' +
    `${JSON.stringify(target)}, "pwned"));`,
    'await attempt("node env", async () => (await import("node:process")).env.FAKE_API_KEY);',
    'await attempt("proc environ", async () => (await import("node:fs")).readFileSync("/proc/self/environ", "utf8"));',
    'await attempt("shell", async () => JSON.stringify(await tools.exec_command({cmd: ' +
    JSON.stringify(
      `echo pwned > ${target}; echo pwned > ${join(ws, ".git", "config")}; ` +
        `mkdir -p ${join(ws, ".openinterpreter")}; env; cat /proc/self/environ`,
    ) + "})));",
    `await attempt("patch", () => tools.apply_patch({input: ${JSON.stringify(patch)}}));`,
    "text(JSON.stringify(tries));",
  ].join("\n");
}

Deno.test("code-mode source cannot write outside the workspace or read provider keys", async () => {
  await using layout = await escapeLayout();
  const before = await layout.snapshot();
  await using fake = startFakeProvider([
    {
      reply: {
        tool_calls: [{
          id: "call_1",
          name: "exec",
          args: {},
          input: hostileSource(layout.ws, layout.outside),
        }],
      },
    },
    { reply: { text: "OK" } },
  ]);
  const home = join(layout.ws, "..", "home");
  await Deno.mkdir(home);
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `model = "gpt-6.2-sol"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "Fake"\n` +
      `base_url = "${fake.baseUrl}"\nwire_api = "responses"\nenv_key = "FAKE_API_KEY"\n`,
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    OPENINTERPRETER_HOME: home,
    FAKE_API_KEY: SECRET,
    NO_COLOR: "1",
  };
  {
    await using session = await openSession(
      { cwd: layout.ws, sandbox: "workspace-write", approval: "never" },
      { onEvent: () => {} },
      { env },
    );
    const outcome = await session.prompt("try", new AbortController().signal);
    assert.equal(outcome.status, "completed", JSON.stringify([outcome, fake.failures]));
  }
  const result = JSON.stringify((fake.requests[1].body as { input: unknown }).input);
  assert.match(result, /Script completed/, result.slice(-3000));
  assert.ok(!result.includes(SECRET), "the provider key reached the model");
  for (const name of ["deno write", "globalThis.Deno", "node fs", "node env", "proc environ"]) {
    assert.match(
      result,
      new RegExp(`${name}\\\\":\\\\"refused: `),
      `${name} was not refused: ${result.slice(-2500)}`,
    );
  }
  assert.deepEqual(await layout.snapshot(), before, "something outside the workspace changed");
});
