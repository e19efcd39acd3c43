import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../errors.ts";
import {
  estimateCost,
  type PlanConfig,
  type PlannedModel,
  planPairs,
  planTrials,
  splitList,
} from "./plan.ts";
import type { EvalTask } from "./types.ts";

const HARNESSES = fileURLToPath(new URL("../../../harnesses", import.meta.url));

const CHAT: PlannedModel = {
  spec: "fake-chat",
  provider: "fake",
  wireApi: "chat",
  price: { input: 2, output: 8, cacheRead: 0.5 },
};
const MESSAGES: PlannedModel = { spec: "fake-messages", provider: "anth", wireApi: "messages" };

const task = (name: string): EvalTask => ({ name, prompt: `do ${name}`, check: "true" });

/** A config home holding user harness `my-min` (minimal, speaking only messages). */
async function homeWithHarness() {
  const home = await Deno.makeTempDir({ prefix: "eval_plan_home_" });
  const dir = join(home, "harnesses", "my-min");
  await copyTree(join(HARNESSES, "minimal"), dir);
  const spec = await Deno.readTextFile(join(dir, "harness.toml"));
  await Deno.writeTextFile(
    join(dir, "harness.toml"),
    spec.replace('id = "minimal"', 'id = "my-min"')
      .replace('wire_apis = ["chat", "responses", "messages"]', 'wire_apis = ["messages"]'),
  );
  const config: PlanConfig = { cwd: home, env: { OPENINTERPRETER_HOME: home }, overrides: [] };
  return { config, [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(join(from, entry.name), join(to, entry.name));
    else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

async function rejectsUsage(promise: Promise<unknown>, message: RegExp, hint: RegExp) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, message);
    assert.match(error.hint ?? "", hint);
    return true;
  });
}

Deno.test("planTrials() runs each task × pair per repetition, repetition first, with unique names", () => {
  const pairs = [{ harness: "native", model: "m1" }, { harness: "minimal", model: "m1" }];
  const trials = planTrials([task("a"), task("b")], pairs, 2);
  assert.deepEqual(trials.map((t) => [t.attempt, t.task.name, t.harness]), [
    [1, "a", "native"],
    [1, "a", "minimal"],
    [1, "b", "native"],
    [1, "b", "minimal"],
    [2, "a", "native"],
    [2, "a", "minimal"],
    [2, "b", "native"],
    [2, "b", "minimal"],
  ]);
  assert.ok(trials.every((t) => t.model === "m1" && t.name.startsWith(`${t.task.name}__`)));
  assert.equal(new Set(trials.map((t) => t.name)).size, trials.length);
});

Deno.test("estimateCost() prices the assumed tokens of every run; undefined without a price", () => {
  const trials = planTrials([task("a")], [{ harness: "native", model: CHAT.spec }], 3);
  const usd = estimateCost(trials, [CHAT]);
  assert.ok(usd !== undefined && Math.abs(usd - 3 * 0.48) < 1e-9, String(usd));
  const mixed = planTrials([task("a")], [
    { harness: "native", model: CHAT.spec },
    { harness: "native", model: MESSAGES.spec },
  ], 1);
  assert.equal(estimateCost(mixed, [CHAT, MESSAGES]), undefined);
  assert.equal(estimateCost(trials, []), undefined, "a model not planned has no price");
});

Deno.test("splitList() splits on commas and drops blanks", () => {
  assert.deepEqual(splitList("a,b , c,,"), ["a", "b", "c"]);
  assert.deepEqual(splitList(" "), []);
});

Deno.test("planPairs() refuses an unknown harness, naming the nearest", async () => {
  await using home = await homeWithHarness();
  await rejectsUsage(
    planPairs("native,nativ", [CHAT], home.config),
    /^Unknown harness "nativ" in --harness$/,
    /^Did you mean native\?.* Harnesses: .*minimal.*my-min/,
  );
  await rejectsUsage(
    planPairs("zzzzzzzzzz", [CHAT], home.config),
    /Unknown harness "zzzzzzzzzz"/,
    /or all, or fitting$/,
  );
});

Deno.test("planPairs() refuses a named harness whose wire APIs do not include the model's", async () => {
  await using home = await homeWithHarness();
  await rejectsUsage(
    planPairs("native,my-min", [CHAT], home.config),
    /^Harness "my-min" cannot talk to fake-chat: provider "fake" speaks the chat wire API and my-min speaks messages$/,
    /--harness fitting/,
  );
  await rejectsUsage(planPairs("zcode", [CHAT], home.config), /Harness "zcode" cannot talk/, /./);
  const pairs = await planPairs("my-min,native", [MESSAGES], home.config);
  assert.deepEqual(pairs.map((p) => [p.harness, p.model.spec]), [
    ["my-min", "fake-messages"],
    ["native", "fake-messages"],
  ]);
});

Deno.test("planPairs() with fitting or all leaves out the harnesses that cannot talk to a model", async () => {
  await using home = await homeWithHarness();
  for (const arg of ["fitting", "all", undefined]) {
    const pairs = await planPairs(arg, [CHAT, MESSAGES], home.config);
    const of = (spec: string) => pairs.filter((p) => p.model.spec === spec).map((p) => p.harness);
    assert.ok(of("fake-chat").includes("native") && of("fake-chat").includes("minimal"));
    assert.ok(!of("fake-chat").includes("zcode"), String(arg));
    assert.ok(!of("fake-chat").includes("my-min"), String(arg));
    assert.ok(of("fake-messages").includes("zcode") && of("fake-messages").includes("my-min"));
  }
  const none: PlannedModel = { spec: "odd", provider: "odd", wireApi: "nothing" as "chat" };
  await rejectsUsage(planPairs("fitting", [none], home.config), /No harness fits/, /--harness/);
});
