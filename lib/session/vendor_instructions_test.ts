/**
 * Other agents' instruction files in the requests themselves: qwen-code gives QWEN.md with
 * AGENTS.md, the user's `~/.qwen/QWEN.md` first and each folder's QWEN.md before its AGENTS.md.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";

Deno.test("qwen-code reads QWEN.md and AGENTS.md folder by folder, QWEN.md first", async () => {
  await using fake = await startFakeProvider([{ reply: { text: "ok" } }]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  const files: Record<string, string> = {
    [join(ws.env.HOME, ".qwen", "QWEN.md")]: "user qwen\n",
    [join(ws.cwd, "QWEN.md")]: "root qwen\n",
    [join(ws.cwd, "AGENTS.md")]: "root agents\n",
    [join(ws.cwd, "GEMINI.md")]: "root gemini\n",
    [join(ws.cwd, "pkg", "QWEN.md")]: "pkg qwen\n",
    [join(ws.cwd, "pkg", "AGENTS.md")]: "pkg agents\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  const cwd = join(ws.cwd, "pkg");
  await using session = await openSession({ cwd, harness: "qwen-code" }, { onEvent() {} }, {
    env: ws.env,
  });
  assert.equal((await session.prompt("hi", new AbortController().signal)).status, "completed");
  const body = fake.requests[0].body as { messages: Array<{ role: string; content: unknown }> };
  const system = JSON.stringify(body.messages[0].content);
  const order = ["user qwen", "root qwen", "root agents", "pkg qwen", "pkg agents"]
    .map((text) => system.indexOf(text));
  assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), system);
  assert.ok(system.includes("--- Context from: ../QWEN.md ---"), system);
  assert.ok(!system.includes("root gemini"), "control: GEMINI.md is gemini-cli's");
});
