import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { HarnessError } from "../errors.ts";
import { renderContext } from "./context.ts";
import { leanView, surfaceNote } from "./lean.ts";
import { listHarnessIds, loadHarness, loadHarnessDir } from "./load.ts";
import { BASE_FILES, BASE_SPEC, loadTestHarness } from "./_test_harness.ts";
import type { PromptVars } from "./types.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses", import.meta.url));
const VARS: PromptVars = {
  cwd: "/w",
  date: "2026-01-15",
  platform: "linux",
  shell: "bash",
  model: "m",
  gitStatus: "",
  agentsMd: "",
  sandbox: "Commands run in a sandbox.",
};

/** BASE_SPEC with a second tool `look` and `lean` appended. */
function specWith(lean: string): string {
  return BASE_SPEC + `
[[tools]]
declaration = "tools/look.json"
capability = "shell.run"
args = { command = "command" }
result = { template = "{output}" }

[[context]]
slot = "first_user"
text = "A long reminder the lean surface leaves out."
${lean}`;
}

const FILES: Record<string, string> = {
  ...BASE_FILES,
  "tools/look.json": JSON.stringify({
    name: "look",
    description: "Look at something.",
    parameters: { type: "object", properties: { command: { type: "string" } } },
  }),
  "prompts/lean.md": "Small prompt in {{cwd}}.",
};

const LEAN = `
[lean]
tools = ["look"]
system_prompt = "prompts/lean.md"

[[lean.context]]
slot = "turn_prefix"
text = "Kept: {{date}}"
`;

async function refusal(spec: string, files = FILES): Promise<HarnessError> {
  const error = await loadTestHarness(spec, files).then(() => undefined, (e) => e);
  assert.ok(error instanceof HarnessError, `expected a HarnessError, got ${error}`);
  return error;
}

Deno.test("loadHarnessDir() reads [lean]: its tools, short prompt and own context", async () => {
  const h = await loadTestHarness(specWith(LEAN), FILES);
  assert.deepEqual(h.lean?.tools, ["look"]);
  assert.equal(h.lean?.systemPrompt, "Small prompt in {{cwd}}.");
  assert.deepEqual(h.lean?.context.map((c) => [c.slot, c.text]), [
    ["system", "Small prompt in {{cwd}}."],
    ["turn_prefix", "Kept: {{date}}"],
  ]);
  assert.equal((await loadTestHarness(BASE_SPEC)).lean, undefined, "no [lean], no lean surface");
});

Deno.test("leanView() presents the lean tools, undeferred, with the lean prompt and context", async () => {
  const full = await loadTestHarness(specWith(LEAN), FILES);
  full.tools[1] = { ...full.tools[1], deferred: true };
  const lean = leanView(full, "0.6B parameters");
  assert.deepEqual(lean.tools.map((t) => [t.declaration.name, t.deferred]), [["look", false]]);
  assert.equal(lean.systemPrompt, "Small prompt in {{cwd}}.");
  const ctx = renderContext(lean, VARS);
  assert.deepEqual(ctx.system.map((p) => p.text), ["Small prompt in /w."]);
  assert.deepEqual(ctx.firstUser, [], "the full surface's reminder is left out");
  assert.equal(ctx.turnPrefix, "Kept: 2026-01-15\n");
  assert.deepEqual(lean.request, full.request);
  assert.equal(lean.errorTemplate, full.errorTemplate);
  assert.equal(surfaceNote(lean), "lean: 0.6B parameters");
  assert.equal(surfaceNote(full), undefined);
  assert.deepEqual(leanView(lean, "0.6B parameters").tools, lean.tools, "applying it twice");
});

Deno.test("leanView() of a harness without [lean] keeps its full surface and says so", async () => {
  const h = await loadTestHarness(BASE_SPEC);
  const view = leanView(h, "lean = true");
  assert.equal(view.tools, h.tools);
  assert.equal(view.context, h.context);
  assert.equal(surfaceNote(view), "full: it has no [lean] section (lean = true)");
});

Deno.test("[lean] refuses a tool the harness lacks, naming the tools it has", async () => {
  const error = await refusal(specWith(LEAN.replace('["look"]', '["look", "Bash"]')));
  assert.match(error.message, /key "lean\.tools": "Bash" is not a tool of this harness$/);
  assert.equal(error.hint, "Name tools its [[tools]] entries declare: run, look");
});

Deno.test("[lean] refuses a tool listed twice and an unknown key", async () => {
  const twice = await refusal(specWith(LEAN.replace('["look"]', '["look", "look"]')));
  assert.match(twice.message, /key "lean\.tools": "look" is listed twice$/);
  const unknown = await refusal(specWith(LEAN.replace("[lean]\n", '[lean]\nmodels = ["x"]\n')));
  assert.match(unknown.message, /unknown key "models" in "lean"/);
});

Deno.test("[lean] refuses a missing prompt file and an unknown prompt variable", async () => {
  const withoutPrompt = { ...FILES };
  delete withoutPrompt["prompts/lean.md"];
  const absent = await refusal(specWith(LEAN), withoutPrompt);
  assert.match(absent.message, /key "lean\.system_prompt": cannot read ".*lean\.md"/);
  const badVar = await refusal(specWith(LEAN), { ...FILES, "prompts/lean.md": "{{nope}}" });
  assert.match(badVar.message, /Invalid lean system prompt ".*lean\.md" at line 1/);
});

Deno.test("[lean] must place inline project instructions, so lean mode never drops them", async () => {
  const inline = specWith(LEAN) + '\n[project_instructions]\nslot = "inline"\n';
  const files = { ...FILES, "prompts/system.md": "Work here.\n{{agents_md}}" };
  const error = await refusal(inline, files);
  assert.match(
    error.message,
    /key "lean\.system_prompt": project instructions go inline, but neither the lean prompt/,
  );
  assert.match(error.hint ?? "", /Put \{\{agents_md\}\} in the lean prompt/);
  const placed = await loadTestHarness(inline, {
    ...files,
    "prompts/lean.md": "Small.\n{{agents_md}}",
  });
  assert.equal(placed.lean?.context.length, 2);
});

Deno.test("[lean] keeps a slot's project-instructions block, and refuses {{agents_md}} beside it", async () => {
  const slot = specWith(LEAN) +
    '\n[project_instructions]\nslot = "user_item"\ntext = "Rules:\\n{{agents_md}}"\n';
  const h = await loadTestHarness(slot, FILES);
  const block = h.lean?.context.find((c) => c.slot === "user_item");
  assert.equal(block?.text, "Rules:\n{{agents_md}}");
  const error = await refusal(slot, { ...FILES, "prompts/lean.md": "Small {{agents_md}}" });
  assert.match(error.message, /key "lean\.project_instructions": the system prompt or a/);
});

Deno.test("[lean] of a text-protocol harness keeps the tools its protocol needs", async () => {
  const root = await Deno.makeTempDir({ prefix: "oi_lean_" });
  try {
    const dir = join(root, "swe-agent");
    await new Deno.Command("cp", { args: ["-r", join(BUILTIN, "swe-agent"), dir] }).output();
    const spec = join(dir, "harness.toml");
    const text = await Deno.readTextFile(spec);
    const kept =
      'tools = ["bash", "str_replace_editor", "submit"]\nsystem_prompt = "prompts/lean.md"';
    assert.ok(text.includes(kept));
    await Deno.writeTextFile(
      spec,
      text.replace(
        kept,
        'tools = ["bash", "str_replace_editor"]\nsystem_prompt = "prompts/lean.md"',
      ),
    );
    const error = await loadHarnessDir(dir).then(() => undefined, (e) => e);
    assert.ok(error instanceof HarnessError);
    assert.match(
      error.message,
      /key "lean\.tools": protocol "swe_agent" needs a tool named "submit"/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("every built-in harness has a lean surface: its own tools, fewer or the same, and a shorter request", async () => {
  const ids = await listHarnessIds({ builtinDir: BUILTIN });
  assert.ok(ids.length >= 14, ids.join(", "));
  for (const id of ids) {
    const full = await loadHarness(id, { builtinDir: BUILTIN });
    assert.ok(full.lean, `${id} has no [lean] section`);
    const lean = leanView(full, "lean = true");
    const names = full.tools.map((t) => t.declaration.name);
    assert.ok(lean.tools.length > 0 && lean.tools.every((t) => names.includes(t.declaration.name)));
    const sent = (h: typeof full) => h.tools.filter((t) => !t.deferred && !t.when).length;
    assert.ok(sent(lean) <= sent(full), `${id}: more lean tools than full ones`);
    if (!full.protocol && sent(full) > 4) assert.ok(sent(lean) <= 4, `${id}: ${sent(lean)} tools`);
    const size = (h: typeof full) => JSON.stringify(renderContext(h, VARS)).length;
    assert.ok(size(lean) < size(full), `${id}: the lean prompt is not shorter`);
  }
});
