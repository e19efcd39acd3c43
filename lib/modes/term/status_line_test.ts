import assert from "node:assert/strict";
import { formatCost, formatTokens, sessionStatusLine, statusLine } from "./status_line.ts";

const facts = {
  model: "gpt-4.1",
  harness: "native",
  contextUsed: 7500,
  contextWindow: 10_000,
  tokens: { input: 7000, output: 500, cached: 2000 },
  cost: 0.015,
};

Deno.test("statusLine() shows model, harness, context share, tokens and cost", () => {
  assert.equal(statusLine(facts), "gpt-4.1 · native · 75% context · 7.0k in / 500 out · $0.0150");
});

Deno.test("statusLine() leaves the cost out when the model has no prices", () => {
  assert.equal(
    statusLine({ ...facts, cost: undefined, contextWindow: 0 }),
    "gpt-4.1 · native · 0% context · 7.0k in / 500 out",
  );
});

Deno.test("statusLine() ends with the session's goal and its use of the budget", () => {
  const goal = { objective: "ship", status: "active", used: "1200 tokens", budget: "5000 tokens" };
  assert.equal(
    statusLine({ ...facts, goal }),
    "gpt-4.1 · native · 75% context · 7.0k in / 500 out · $0.0150 · goal active 1200 tokens of 5000 tokens",
  );
  assert.match(
    statusLine({ ...facts, goal: { ...goal, budget: "" } }),
    / · goal active 1200 tokens$/,
  );
});

Deno.test("statusLine() makes control characters in a model name visible", () => {
  assert.ok(!statusLine({ ...facts, model: "evil\x1b[2J" }).includes("\x1b"));
});

Deno.test("formatTokens() rounds to what a glance needs", () => {
  assert.deepEqual(
    [0, 512, 999, 1000, 3449, 9949, 9950, 34_400, 999_499, 999_500, 1_250_000].map(formatTokens),
    ["0", "512", "999", "1.0k", "3.4k", "9.9k", "10k", "34k", "999k", "1.0M", "1.3M"],
  );
});

Deno.test("formatCost() keeps small costs readable", () => {
  assert.deepEqual(
    [0, 0.00001, 0.0123, 0.99994, 1, 12.3].map(formatCost),
    ["$0.0000", "<$0.0001", "$0.0123", "$0.9999", "$1.00", "$12.30"],
  );
});

Deno.test("sessionStatusLine() is off with status_line = false", () => {
  const session = (status_line?: boolean) => ({ config: { status_line }, status: () => facts });
  assert.equal(sessionStatusLine(session(false)), undefined);
  assert.match(sessionStatusLine(session())!, /^gpt-4\.1 · native/);
});
