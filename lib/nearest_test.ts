import assert from "node:assert/strict";
import { editDistance, nearestName, nearestNames } from "./nearest.ts";

Deno.test("editDistance() counts single-character edits and a swap of neighbours as one", () => {
  assert.equal(editDistance("gpt-4.1-mnii", "gpt-4.1-mini"), 1);
  assert.equal(editDistance("exce", "exec"), 1);
  assert.equal(editDistance("resmue", "resume"), 1);
  assert.equal(editDistance("hello", "help"), 2);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("same", "same"), 0);
});

Deno.test("nearestNames() puts names that contain the typed one first, then near typos", () => {
  const known = ["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o4-mini", "deepseek-chat"];
  assert.deepEqual(nearestNames("gpt-4.1-mnii", known), ["gpt-4.1-mini", "gpt-4.1-nano"]);
  assert.deepEqual(nearestNames("MINI", known, { most: 2 }), ["o4-mini", "gpt-4.1-mini"]);
  assert.deepEqual(nearestNames("claude", known), []);
});

Deno.test("nearestName() takes a limit of edits and can leave containment out", () => {
  const keys = ["model", "model_provider", "approval_policy"];
  assert.equal(nearestName("modle", keys, { within: 1 }), "model");
  assert.equal(nearestName("mod", keys, { within: 1, contains: false }), undefined);
  assert.equal(nearestName("mod", keys, { within: 1 }), "model");
  assert.equal(
    nearestName("aproval_policy", keys, { within: 2, contains: false }),
    "approval_policy",
  );
  assert.equal(nearestName("xyz", keys), undefined);
});
