/**
 * ACP permission requests as an editor gets them, driven by the official ACP SDK's client: an
 * edit's request carries the change as `diff` content (old and new text), not the patch as JSON;
 * a client that answers with an error denies the call and the prompt goes on, and the same edit
 * allowed (the control) is applied.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, LAUNCHER, tempDirs } from "./_harness_env.ts";

const OLD = "        if today.day - previous.day == 1:";
const NEW = "        if (today - previous).days == 1:";
const PATCH = "*** Begin Patch\n*** Update File: habits.py\n@@\n" +
  `     for previous, today in zip(days, days[1:]):\n-${OLD}\n+${NEW}\n` +
  "             current += 1\n*** End Patch\n";

Deno.test("ACP: an edit's permission request carries its diff; an error answer denies it", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const patch = { tool_calls: [{ name: "apply_patch", args: { input: PATCH } }] };
  await using model = startFakeProvider([
    { reply: patch },
    { expect: { last_tool_result_contains: "refused" }, reply: patch },
    { expect: { last_tool_result_contains: "habits.py" }, reply: { text: "Fixed it." } },
  ]);
  const home = await dirs.add(fakeHome(model.baseUrl, "chat"));
  const child = new Deno.Command(LAUNCHER, {
    args: ["acp", "--harness", "native", "-a", "untrusted"],
    cwd: repo,
    env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "test-key", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const asked: acp.RequestPermissionRequest[] = [];
  const connection = acp.client({ name: "acp-permission-test" })
    .onNotification(acp.methods.client.session.update, () => {})
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      asked.push(params);
      if (asked.length === 1) throw acp.RequestError.internalError(undefined, "editor crashed");
      return { outcome: { outcome: "selected", optionId: "accept" } };
    })
    .connect(acp.ndJsonStream(child.stdin, child.stdout));
  try {
    const { agent } = connection;
    await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, {
      cwd: repo,
      mcpServers: [],
    });
    const done = await agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "fix the streak bug" }],
    });
    assert.equal(done.stopReason, "end_turn");
    assert.equal(asked.length, 2);
    for (const request of asked) {
      const content = request.toolCall.content ?? [];
      assert.deepEqual(content.find((c) => c.type === "diff"), {
        type: "diff",
        path: join(repo, "habits.py"),
        oldText:
          `    for previous, today in zip(days, days[1:]):\n${OLD}\n            current += 1`,
        newText:
          `    for previous, today in zip(days, days[1:]):\n${NEW}\n            current += 1`,
      });
      const text = JSON.stringify(content.filter((c) => c.type === "content"));
      assert.match(text, /Why: /);
      assert.doesNotMatch(text, /Begin Patch/, "the patch is not repeated as JSON");
    }
    // The denied first call left the file alone; the second, allowed, changed it.
    const after = await Deno.readTextFile(join(repo, "habits.py"));
    assert.ok(after.includes(NEW) && !after.includes(OLD));
    assert.deepEqual(model.failures, []);
    assert.equal(model.remaining(), 0);
  } finally {
    connection.close();
    await child.stdin.close().catch(() => {});
    await child.status;
  }
  assert.match(
    await stderr,
    /The client's answer to a permission request failed, so it is a no: .*editor crashed/,
  );
});
