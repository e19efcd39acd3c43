import assert from "node:assert/strict";
import { topicUpdate } from "./topic_update.ts";
import { tempWorkspace } from "./_test_workspace.ts";

Deno.test("topic.update starts a topic with a title and keeps it for intents without one", async () => {
  await using ws = await tempWorkspace();
  const first = await topicUpdate.run(
    { title: "Researching", summary: "Start.", strategic_intent: "Find the bug." },
    ws.ctx,
  );
  assert.deepEqual(first, {
    title: "Researching",
    summary: "Start.",
    strategicIntent: "Find the bug.",
    newTopic: true,
  });
  const next = await topicUpdate.run({ strategic_intent: "Read the parser." }, ws.ctx);
  assert.equal(next.title, "Researching");
  assert.equal(next.newTopic, false);
  const same = await topicUpdate.run({ title: "Researching", strategic_intent: "More." }, ws.ctx);
  assert.equal(same.newTopic, false);
  const moved = await topicUpdate.run({ title: "Fixing", strategic_intent: "Edit it." }, ws.ctx);
  assert.equal(moved.newTopic, true);
});
