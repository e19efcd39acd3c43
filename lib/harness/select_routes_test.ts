import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { chooseHarnessWhy, routeFor, routeLoadError } from "./routes.ts";
import type { HarnessCandidate } from "./select.ts";

const QWEN: HarnessCandidate = {
  id: "qwen-code",
  user: false,
  match: { models: ["qwen*"], providers: [], baseUrls: [], wireApis: [], priority: 10 },
};
const BASE = {
  model: "qwen3-coder",
  providerId: "p",
  providerName: "P",
  baseUrl: "http://x",
  wireApi: "chat" as const,
  candidates: [QWEN],
};

Deno.test("routeFor takes the exact name before a glob, and globs in table order", () => {
  const routes = { "qwen*": "pi", "qwen3-coder": "minimal", "q*": "native" };
  assert.deepEqual(routeFor(routes, "qwen3-coder"), { pattern: "qwen3-coder", id: "minimal" });
  assert.deepEqual(routeFor(routes, "QWEN2"), { pattern: "qwen*", id: "pi" });
  assert.equal(routeFor(routes, "gpt-5"), undefined);
});

Deno.test("a route's reason names it; chooseHarnessWhy: configured, [match], family, default", () => {
  assert.deepEqual(chooseHarnessWhy({ ...BASE, routes: { "qwen3*": "minimal" } }), {
    id: "minimal",
    reason: 'route "qwen3*" in [harness_routes] (config.toml)',
  });
  assert.deepEqual(chooseHarnessWhy({ ...BASE, configured: "pi", routes: { "q*": "minimal" } }), {
    id: "pi",
    reason: "configured (harness)",
  });
  assert.deepEqual(chooseHarnessWhy(BASE), { id: "qwen-code", reason: "[match] of qwen-code" });
  assert.deepEqual(chooseHarnessWhy({ ...BASE, model: "m1", modelFamilies: ["qwen2"] }), {
    id: "qwen-code",
    reason: "[match] of qwen-code (reported family qwen2)",
  });
  assert.deepEqual(chooseHarnessWhy({ ...BASE, model: "m1" }), {
    id: "native",
    reason: "default (nothing else matched)",
  });
});

Deno.test("a route pattern with unsupported glob syntax, or naming no harness, says which line to fix", () => {
  assert.throws(
    () => routeFor({ "q?": "native" }, "q1"),
    /\[harness_routes\].*"\?" is not supported/,
  );
  const choice = chooseHarnessWhy({ ...BASE, routes: { "qwen*": "nope" } });
  const err = routeLoadError(
    new UserError('Unknown harness "nope"', { hint: "Available: pi" }),
    choice,
  );
  assert.ok(err instanceof Error);
  assert.equal(
    err.message,
    'Unknown harness "nope", named by route "qwen*" in [harness_routes] (config.toml)',
  );
  assert.equal(
    (err as UserError).hint,
    "Available: pi; fix or remove that line of [harness_routes]",
  );
  const other = new Error("disk");
  assert.equal(routeLoadError(other, choice), other);
});
