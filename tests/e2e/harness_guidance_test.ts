import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, tempDirs } from "./_harness_env.ts";

/** A sentence of harnesses/kimi-cli/prompts/guidance.md. */
const GUIDANCE = "If two attempts at the same fix have failed, stop and take a different approach.";

function systemText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return messages.filter((m) => m.role === "system").map((m) => JSON.stringify(m.content)).join();
}

async function runKimi(extraArgs: string[], expect: Record<string, string>) {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([{ expect, reply: { text: "OK" } }]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const result = await interpreter(
    ["exec", "--harness", "kimi-cli", ...extraArgs, "say OK"],
    { cwd: repo, home },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.requests.length, 1);
  return systemText(fake.requests[0].body);
}

Deno.test("the kimi-cli system prompt carries the harness guidance by default", async () => {
  const system = await runKimi([], { system_contains: GUIDANCE });
  assert.ok(system.includes("<extra_instruction>"));
});

Deno.test("-c harness_guidance=false leaves the guidance out of the system prompt", async () => {
  const system = await runKimi(["-c", "harness_guidance=false"], {
    system_contains: "# Environment",
  });
  assert.ok(!system.includes(GUIDANCE), "the guidance must not be sent");
  assert.ok(!system.includes("<extra_instruction>"));
});
