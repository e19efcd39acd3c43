import assert from "node:assert/strict";
import { HarnessError } from "../errors.ts";
import { BASE_FILES, BASE_SPEC, loadTestHarness } from "./_test_harness.ts";

const CONTEXT = `
[[context]]
slot = "user_item"
text = "<env>{{cwd}}</env>"
`;

Deno.test("[project_instructions] with a slot puts its block first in that slot", async () => {
  const h = await loadTestHarness(
    BASE_SPEC + CONTEXT + `
[project_instructions]
slot = "user_item"
text = "# For {{cwd}}\\n{{agents_md}}"
file_template = "From {path}:\\n{text}"
`,
  );
  assert.deepEqual(h.context.map((c) => [c.slot, c.text, c.when]), [
    ["system", "Work in {{cwd}} on {{platform}}.", undefined],
    ["user_item", "# For {{cwd}}\n{{agents_md}}", ["agentsMd"]],
    ["user_item", "<env>{{cwd}}</env>", undefined],
  ]);
  assert.deepEqual(h.projectInstructions, {
    slot: "user_item",
    fileTemplate: "From {path}:\n{text}",
    globalTemplate: "From {path}:\n{text}",
    globalSeparator: "\n\n",
  });
});

Deno.test("[project_instructions] that would send instructions twice or never is refused", async () => {
  const inline = { ...BASE_FILES, "prompts/system.md": "Work here.\n{{agents_md}}" };
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['slot = "inline"', BASE_FILES, /slot is "inline" but no template uses \{\{agents_md\}\}/],
    ['slot = "none"', inline, /slot is "none" but a template uses \{\{agents_md\}\}/],
    ['slot = "first_user"\ntext = "{{agents_md}}"', inline, /the system prompt or a \[\[context/],
    ['slot = "first_user"\ntext = "{{claude_md}}"', BASE_FILES, /does not use \{\{agents_md\}\}/],
    ['slot = "inline"\nfile_template = "{path}"', inline, /must contain \{text\}/],
  ];
  for (const [table, files, message] of cases) {
    await assert.rejects(
      () => loadTestHarness(`${BASE_SPEC}\n[project_instructions]\n${table}\n`, files),
      (err: Error) => err instanceof HarnessError && message.test(err.message),
      table,
    );
  }
});
