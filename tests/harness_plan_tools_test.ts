import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import { advertisedTools } from "../lib/harness/deferred.ts";
import { toolsForSession } from "../lib/harness/session_tools.ts";
import { call, scriptedProvider } from "../lib/loop/_test_loop.ts";
import type { PlanModeControl } from "../lib/tools/types.ts";
import { harnessTurn } from "./_harness_turn.ts";
import { layoutRequests, stringsOf } from "./_layout_session.ts";

/** Issue 31 item 6: plan tools and deferred tools as Claude Code (and Kimi Code) have them. */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const names = (h: { name: string }[]) => h.map((t) => t.name);

function planControl(on: boolean): PlanModeControl {
  return { on, enter: () => Promise.resolve("Plan first."), propose: () => {} };
}

/** One turn of claude-code with `replies`; the requests and the tool results the model read. */
function claudeTurn(replies: Parameters<typeof scriptedProvider>[0], planOn?: boolean) {
  return harnessTurn("claude-code", replies, (ctx) => {
    if (planOn !== undefined) ctx.planMode = planControl(planOn);
  });
}

Deno.test("claude-code sends ExitPlanMode in tools while plan mode is on, and only then", async () => {
  const h = await loadHarness("claude-code", { builtinDir: HARNESSES });
  assert.ok(h.tools.find((t) => t.declaration.name === "ExitPlanMode")?.deferred);
  assert.ok(!names(advertisedTools(h, new Map())).includes("ExitPlanMode"));
  assert.ok(names(advertisedTools(h, new Map(), true)).includes("ExitPlanMode"));
  assert.ok(!names(advertisedTools(h, new Map(), true)).includes("EnterPlanMode"));
  const on = await claudeTurn([[{ type: "text", text: "A plan." }]], true);
  assert.ok(names(on.requests[0].tools).includes("ExitPlanMode"));
  const off = await claudeTurn([[{ type: "text", text: "Done." }]], false);
  assert.ok(!names(off.requests[0].tools).includes("ExitPlanMode"));
});

Deno.test("claude-code refuses a deferred tool called before ToolSearch loaded it", async () => {
  const args = { notebook_path: "n.ipynb", new_source: "x", cell_id: "c" };
  const { results, requests } = await claudeTurn([
    [call("c1", "NotebookEdit", args)],
    [call("c2", "ToolSearch", { query: "select:NotebookEdit" })],
    [{ type: "text", text: "Done." }],
  ]);
  assert.equal(
    results[0],
    "<tool_use_error>InputValidationError: NotebookEdit was called before its schema was loaded, " +
      'so its input could not be checked. Call ToolSearch with query "select:NotebookEdit" to ' +
      "load it, then make this call again.</tool_use_error>",
  );
  // Once loaded, it is sent like any other tool.
  assert.ok(names(requests[2].tools).includes("NotebookEdit"));
});

Deno.test("plan tools are left out of a session where nobody can approve a plan", async () => {
  for (const id of ["claude-code", "kimi-code", "zcode"]) {
    const h = await loadHarness(id, { builtinDir: HARNESSES });
    const plan = (v: typeof h) =>
      v.tools.filter((t) => t.capability.startsWith("plan.e")).map((t) => t.declaration.name);
    assert.deepEqual(plan(toolsForSession(h, { mcpServers: false, answersQuestions: true })), [
      "EnterPlanMode",
      "ExitPlanMode",
    ]);
    assert.deepEqual(
      plan(toolsForSession(h, { mcpServers: false, answersQuestions: false })),
      [],
      id,
    );
  }
  // A session with no one to ask (this test's) names neither tool anywhere in its request.
  const { bodies } = await layoutRequests({
    harness: "claude-code",
    wire: "messages",
    model: "claude-opus-5-5",
    replies: [{ text: "OK" }],
  });
  const text = stringsOf(bodies[0]).join("\n");
  assert.doesNotMatch(text, /EnterPlanMode|ExitPlanMode/);
  assert.match(text, /NotebookEdit/, "the other deferred tools are still named");
});

Deno.test("kimi-code maps EnterPlanMode and ExitPlanMode (its options accepted) onto plan mode", async () => {
  const h = await loadHarness("kimi-code", { builtinDir: HARNESSES });
  const tool = (name: string) => h.tools.find((t) => t.declaration.name === name);
  assert.equal(tool("EnterPlanMode")?.capability, "plan.enter");
  assert.equal(tool("ExitPlanMode")?.capability, "plan.exit");
  assert.deepEqual(tool("ExitPlanMode")?.args, { options: "" });
});
