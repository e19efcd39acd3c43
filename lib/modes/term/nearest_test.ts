import assert from "node:assert/strict";
import { editDistance, nearestNames } from "./nearest.ts";

Deno.test("editDistance() counts single-character edits", () => {
  assert.equal(editDistance("gpt-4.1-mnii", "gpt-4.1-mini"), 2);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("same", "same"), 0);
});

Deno.test("nearestNames() puts names that contain the typed one first, then near typos", () => {
  const known = ["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o4-mini", "deepseek-chat"];
  assert.deepEqual(nearestNames("gpt-4.1-mnii", known), ["gpt-4.1-mini", "gpt-4.1-nano"]);
  assert.deepEqual(nearestNames("MINI", known, 2), ["o4-mini", "gpt-4.1-mini"]);
  assert.deepEqual(nearestNames("claude", known), []);
});
