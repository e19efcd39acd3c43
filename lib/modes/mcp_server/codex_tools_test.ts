import assert from "node:assert/strict";
import { uuidV7 } from "../../store/mod.ts";
import { parseReplyArgs, ToolArgumentsError } from "./codex_tools.ts";

Deno.test("parseReplyArgs() takes a thread id, never a path or anything else", () => {
  const id = uuidV7();
  assert.deepEqual(parseReplyArgs({ threadId: id, prompt: "go on" }), {
    threadId: id,
    prompt: "go on",
  });
  assert.deepEqual(parseReplyArgs({ conversationId: id, prompt: "p" }).threadId, id);
  for (
    const bad of [
      "/home/me/.openinterpreter/sessions/2026/01/01/rollout.jsonl",
      `../${id}.jsonl`,
      `${id}/../../x`,
      "C:\\sessions\\x.jsonl",
      id.slice(0, 8),
      id.toUpperCase(),
    ]
  ) {
    assert.throws(() => parseReplyArgs({ threadId: bad, prompt: "p" }), (error: unknown) => {
      assert.ok(error instanceof ToolArgumentsError);
      assert.equal(
        error.message,
        `Cannot continue thread ${JSON.stringify(bad)}: it is no thread id; pass the threadId a ` +
          "codex call returned (a UUID), never a file path",
      );
      return true;
    });
  }
});
