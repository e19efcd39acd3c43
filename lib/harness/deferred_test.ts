import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "../tools/capability.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { DEFERRED_FILES, DEFERRED_SPEC } from "./_test_deferred.ts";
import { BASE_SPEC, loadTestHarness } from "./_test_harness.ts";
import { advertisedTools, deferredToolNames, LOADED_TOOLS_KEY, toolCatalog } from "./deferred.ts";
import { renderSystemPrompt } from "./prompt.ts";
import type { PromptVars } from "./types.ts";

const allowAll = () => Promise.resolve({ allow: true as const });

function deferredHarness() {
  return loadTestHarness(DEFERRED_SPEC, DEFERRED_FILES, "d");
}

function ctx(state: Map<string, unknown>): ToolContext {
  return {
    callId: "test_call",
    progress: () => {},
    cwd: Deno.cwd(),
    signal: new AbortController().signal,
    env: { PATH: Deno.env.get("PATH") ?? "" },
    state,
    fs: inProcessFs,
  };
}

const VARS: PromptVars = {
  cwd: "/w",
  date: "d",
  platform: "p",
  shell: "s",
  model: "m",
  gitStatus: "",
  agentsMd: "",
  sandbox: "",
};

Deno.test("loadHarnessDir() reads deferred and defaults it to false", async () => {
  const h = await deferredHarness();
  assert.deepEqual(
    h.tools.map((t) => [t.declaration.name, t.deferred]),
    [["run", false], ["later", true], ["Plan", true], ["ToolSearch", false], ["tool_call", false]],
  );
  const plain = await loadTestHarness(BASE_SPEC);
  assert.equal(plain.tools[0].deferred, false);
});

Deno.test("loadHarnessDir() rejects deferred tools with no search or call tool to reach them", async () => {
  const spec = BASE_SPEC.replace(
    'capability = "shell.run"',
    'capability = "shell.run"\ndeferred = true',
  );
  await assert.rejects(
    loadTestHarness(spec),
    /key "tools": deferred tools "run" cannot be reached/,
  );
});

Deno.test("advertisedTools() leaves out deferred tools until they are loaded", async () => {
  const h = await deferredHarness();
  const state = new Map<string, unknown>();
  assert.deepEqual(advertisedTools(h, state).map((d) => d.name), [
    "run",
    "ToolSearch",
    "tool_call",
  ]);
  assert.deepEqual(deferredToolNames(h, state), ["later", "Plan"]);
  const catalog = toolCatalog(h, state, { guard: allowAll });
  assert.deepEqual(catalog.load(["Plan", "run", "nope"]), ["Plan", "run"]);
  assert.deepEqual(state.get(LOADED_TOOLS_KEY), ["Plan"]);
  assert.deepEqual(
    advertisedTools(h, state).map((d) => d.name),
    ["run", "ToolSearch", "tool_call", "Plan"],
  );
  assert.deepEqual(deferredToolNames(h, state), ["later"]);
  catalog.load(["Plan", "later"]);
  assert.deepEqual(state.get(LOADED_TOOLS_KEY), ["Plan", "later"]);
});

Deno.test("toolCatalog().list() offers only the deferred tools", async () => {
  const h = await deferredHarness();
  const list = toolCatalog(h, new Map(), { guard: allowAll }).list();
  assert.deepEqual(list.map((e) => e.name), ["later", "Plan"]);
  assert.equal(list[0].description, "The later tool.");
  assert.deepEqual(list[0].parameters.required, ["command"]);
});

Deno.test("toolCatalog().call() runs a tool through its harness mapping and template", async () => {
  const h = await deferredHarness();
  const state = new Map<string, unknown>();
  const text = await toolCatalog(h, state, { guard: allowAll }).call("later", {
    command: "echo hi",
  }, ctx(state));
  assert.equal(text, "later said hi\n");
  assert.deepEqual(advertisedTools(h, state).map((d) => d.name), [
    "run",
    "ToolSearch",
    "tool_call",
  ]);
});

Deno.test("toolCatalog().call() rejects unknown names, itself, and bad arguments", async () => {
  const h = await deferredHarness();
  const state = new Map<string, unknown>();
  const catalog = toolCatalog(h, state, { guard: allowAll });
  await assert.rejects(catalog.call("nope", {}, ctx(state)), (err: ToolError) => {
    assert.ok(err instanceof ToolError);
    assert.equal(err.message, "No tool named nope");
    assert.equal(err.hint, "Tools to call this way: later, Plan");
    return true;
  });
  await assert.rejects(catalog.call("tool_call", {}, ctx(state)), /No tool named tool_call/);
  await assert.rejects(
    catalog.call("later", {}, ctx(state)),
    /missing required argument "command"/,
  );
});

Deno.test("toolCatalog().call() asks the guard first and refuses when it says no", async () => {
  const h = await deferredHarness();
  const state = new Map<string, unknown>();
  const seen: unknown[] = [];
  const catalog = toolCatalog(h, state, {
    guard: (call, resolved) => {
      seen.push([call.name, resolved.capability, resolved.input]);
      return Promise.resolve({ allow: false, reason: "Denied by policy" });
    },
  });
  await assert.rejects(
    catalog.call("later", { command: "touch x" }, ctx(state)),
    /Denied by policy/,
  );
  assert.deepEqual(seen, [["later", "shell.run", { command: "touch x" }]]);
});

Deno.test("renderSystemPrompt() fills {{deferred_tools}} from the harness unless given", async () => {
  const h = await deferredHarness();
  assert.equal(renderSystemPrompt(h, VARS), "Deferred:\nlater\nPlan");
  assert.equal(renderSystemPrompt(h, { ...VARS, deferredTools: "X" }), "Deferred:\nX");
});

Deno.test("toolCatalog().call() runs the guard's rewrite, checked like the model's input", async () => {
  const h = await deferredHarness();
  const state = new Map<string, unknown>();
  const rewriting = (input: unknown) =>
    toolCatalog(h, state, {
      guard: () => Promise.resolve({ allow: true, input, unsandboxed: false }),
    });
  const text = await rewriting({ command: "echo rewritten" }).call("later", {
    command: "echo hi",
  }, ctx(state));
  assert.equal(text, "later said rewritten\n");
  await assert.rejects(
    rewriting({ command: 7 }).call("later", { command: "echo hi" }, ctx(state)),
    (err: ToolError) =>
      err instanceof ToolError && /A hook rewrote the input of later into one it cannot run/
        .test(err.message),
  );
});
