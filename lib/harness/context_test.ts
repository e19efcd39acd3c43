import assert from "node:assert/strict";
import { join } from "node:path";
import { promptMessages, renderContext, withOpeningContext, withoutContext } from "./context.ts";
import { loadHarnessDir } from "./load.ts";
import type { ContextEntry, Harness, PromptVars } from "./types.ts";

const VARS = { cwd: "/w", date: "2026-12-01", skills: "", agentsMd: "be kind" } as PromptVars;

function harness(context: ContextEntry[]): Harness {
  return { context, guidance: "", tools: [] } as unknown as Harness;
}

const entry = (slot: ContextEntry["slot"], text: string, more: Partial<ContextEntry> = {}) => ({
  slot,
  text,
  cache: false,
  samePart: false,
  ...more,
});

Deno.test("renderContext() puts each piece in its slot and leaves out empty ones", () => {
  const ctx = renderContext(
    harness([
      entry("system", "You work in {{cwd}}.", { cache: true }),
      entry("developer", "dev"),
      entry("user_item", "<env>{{date}}</env>"),
      entry("first_user", "<r>{{agents_md}}</r>", { when: ["agentsMd"] }),
      entry("first_user", "<skills>{{skills}}</skills>", { when: ["skills"] }),
      entry("system_message", "env", { cache: true }),
      entry("every_user", "<again>"),
      entry("turn_prefix", "<meta>{{date}}</meta>"),
    ]),
    VARS,
  );
  assert.deepEqual(ctx.system, [
    { text: "You work in /w.", slot: "system", cache: true },
    { text: "dev", slot: "developer" },
  ]);
  assert.deepEqual(ctx.firstUser, [{ type: "text", text: "<r>be kind</r>", context: true }]);
  const prompt = [{ type: "text" as const, text: "fix it" }];
  const first = promptMessages(ctx, prompt, true);
  assert.deepEqual(first.map((m) => m.role === "user" && m.systemRole ? "system" : m.role), [
    "user",
    "user",
    "system",
    "user",
  ]);
  assert.deepEqual(
    first[1].blocks.map((b) => b.type === "text" ? b.text : ""),
    ["<r>be kind</r>", "<meta>2026-12-01</meta>", "fix it"],
  );
  const later = promptMessages(ctx, prompt, false);
  assert.equal(later.length, 2, "later prompts get the prefix and the every-prompt reminder");
  assert.deepEqual(withoutContext([...first, ...later]), [
    { role: "user", blocks: prompt },
    { role: "user", blocks: prompt },
  ]);
  const reopened = withOpeningContext(ctx, withoutContext(first));
  assert.equal(reopened.length, 3);
  assert.equal(reopened[1].blocks.length, 2);
});

Deno.test("loadHarnessDir() names the key and the fix for a context entry's unknown variable", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_context_" });
  try {
    const h = join(dir, "t");
    await Deno.mkdir(h);
    await Deno.writeTextFile(join(h, "prompt.md"), "hi");
    const spec = (when: string) =>
      `id = "t"\nlabel = "T"\nsystem_prompt = "prompt.md"\nwire_apis = ["chat"]\n` +
      `reasoning_replay = "none"\nerror_template = "{message}"\nunknown_tool_template = "{name}"\n` +
      `[[context]]\nslot = "first_user"\ntext = "x"\nwhen = "${when}"\n`;
    await Deno.writeTextFile(join(h, "harness.toml"), spec("skils"));
    await assert.rejects(
      () => loadHarnessDir(h),
      /key "context\[0\]"\.when: "skils" is not a prompt variable/,
    );
    await Deno.writeTextFile(
      join(h, "harness.toml"),
      spec("skills").replace('text = "x"', 'text = "{{cwdd}}"'),
    );
    await assert.rejects(
      () => loadHarnessDir(h),
      /Invalid \[\[context\]\] entry 1 \(text\) in ".*harness\.toml" at line 1: unknown variable "\{\{cwdd\}\}"/,
    );
    await Deno.writeTextFile(join(h, "harness.toml"), spec("skills"));
    const loaded = await loadHarnessDir(h);
    assert.deepEqual(loaded.context.map((c) => c.slot), ["system", "first_user"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a first_prompt template goes around the first prompt only", () => {
  const ctx = renderContext(
    harness([entry("first_prompt", "<task>\n{{prompt}}\n</task>\nin {{cwd}}")]),
    VARS,
  );
  const prompt = [{ type: "text" as const, text: "fix it" }];
  const [first] = promptMessages(ctx, prompt, true);
  assert.deepEqual(first.blocks.map((b) => b.type === "text" ? b.text : ""), [
    "<task>",
    "fix it",
    "</task>\nin /w",
  ]);
  assert.deepEqual(promptMessages(ctx, prompt, false), [{ role: "user", blocks: prompt }]);
});
