import assert from "node:assert/strict";
import type { Message } from "../model/message.ts";
import { SteerInbox } from "./steer.ts";

Deno.test("a steered line lands before the next request; one the turn never took comes back", async () => {
  const inbox = new SteerInbox();
  const messages: Message[] = [];
  const landed = inbox.add("use tabs", true);
  inbox.deliver(messages);
  assert.equal(await landed, true);
  assert.deepEqual(messages, [{ role: "user", blocks: [{ type: "text", text: "use tabs" }] }]);
  const late = inbox.add("and rename it", true);
  inbox.endTurn();
  assert.equal(await late, false, "the turn ended before another request");
  inbox.deliver(messages);
  assert.equal(messages.length, 1, "an ended turn's line is not delivered later");
  assert.equal(await inbox.add("no turn runs", false), false);
  assert.equal(await inbox.add("   ", true), false);
});
