import assert from "node:assert/strict";
import { HarnessError } from "../errors.ts";
import { BASE_FILES, BASE_SPEC, loadTestHarness } from "./_test_harness.ts";
import { renderSystemPrompt } from "./prompt.ts";
import type { PromptVars } from "./types.ts";

const VARS: PromptVars = {
  cwd: "/w",
  date: "2026-01-02",
  platform: "linux",
  shell: "bash",
  model: "m",
  gitStatus: "",
  agentsMd: "",
  sandbox: "",
};

const GUIDED_SPEC = BASE_SPEC.replace(
  'system_prompt = "prompts/system.md"',
  'system_prompt = "prompts/system.md"\nguidance = "prompts/guidance.md"',
);

function guided(prompt: string) {
  return loadTestHarness(GUIDED_SPEC, {
    ...BASE_FILES,
    "prompts/system.md": prompt,
    "prompts/guidance.md": "- Verify your work.\n",
  });
}

Deno.test("renderSystemPrompt() puts the harness's guidance at {{guidance}} unless turned off", async () => {
  const h = await guided("Work in {{cwd}}.\n{{guidance}}\nEnd.");
  assert.equal(h.guidance, "- Verify your work.");
  assert.equal(renderSystemPrompt(h, VARS), "Work in /w.\n- Verify your work.\nEnd.");
  assert.equal(renderSystemPrompt(h, { ...VARS, guidance: "" }), "Work in /w.\n\nEnd.");
});

Deno.test("{{guidance}} is empty for a harness without a guidance file", async () => {
  const h = await loadTestHarness(BASE_SPEC, {
    ...BASE_FILES,
    "prompts/system.md": "A{{guidance}}B",
  });
  assert.equal(h.guidance, undefined);
  assert.equal(renderSystemPrompt(h, VARS), "AB");
});

Deno.test("loadHarnessDir() refuses guidance when the prompt has no {{guidance}} slot", async () => {
  await assert.rejects(
    guided("Work in {{cwd}}."),
    (err) =>
      err instanceof HarnessError &&
      /key "guidance": the system prompt has no \{\{guidance\}\} placeholder/.test(err.message),
  );
});
