import assert from "node:assert/strict";
import { type AgentFile, parseAgentFile } from "./parse.ts";

const file = (vendor: AgentFile["vendor"], path = `/p/${vendor}.md`): AgentFile => ({
  path,
  vendor,
  scope: "project",
  relName: "team/docs",
});

Deno.test("a Claude Code agent: name, description, comma tools, model, body as prompt", async () => {
  const got = await parseAgentFile(
    "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Bash(git diff *)\n" +
      "disallowedTools: Write\nmodel: sonnet\n---\nReview it.\n",
    file("claude"),
  );
  assert.deepEqual(got, {
    name: "reviewer",
    scope: "project",
    source: "/p/claude.md",
    vendor: "claude",
    description: "Reviews code",
    prompt: "Review it.",
    model: "sonnet",
    tools: ["Read", "Grep", "Bash(git diff *)"],
    disallowedTools: ["Write"],
  });
});

Deno.test("model inherit, a YAML tools list with * and a plan permission mode", async () => {
  const got = await parseAgentFile(
    "---\nname: a\ndescription: d\nmodel: inherit\ntools: ['*']\npermissionMode: plan\n---\nx",
    file("qwen"),
  );
  assert.equal(got?.model, undefined);
  assert.equal(got?.tools, undefined);
  assert.equal(got?.readOnly, true);
});

Deno.test("bad agent files are errors naming the file, the line and the fix", async () => {
  const cases: Array<[string, RegExp]> = [
    ["---\ndescription: d\n---\nx", /\/p\/claude\.md: it has no name.*/],
    ["---\nname: a:b\ndescription: d\n---\nx", /has the name "a:b"/],
    ["---\nname: -a\ndescription: d\n---\nx", /has the name "-a"/],
    ["---\nname: a\n---\nx", /has no description/],
    ["---\nname: a\ndescription: [oops\n---\nx", /\/p\/claude\.md, line \d+: .*not valid YAML/],
    ["no front matter", /has no front matter/],
    ["---\nname: a\ndescription: d\ntools: 3\n---\nx", /tools value that is not a list/],
  ];
  for (const [text, message] of cases) {
    await assert.rejects(parseAgentFile(text, file("claude")), (error: Error) => {
      assert.match(error.message, message);
      assert.ok((error as { hint?: string }).hint, "every error says how to fix it");
      return true;
    });
  }
});

Deno.test("opencode: name from the path, primary agents skipped, tools map as denials", async () => {
  const text = "---\ndescription: Docs\nmode: subagent\nmodel: anthropic/claude-x\n" +
    "tools:\n  bash: false\n  read: true\npermission:\n  edit: deny\n---\nWrite docs.";
  const got = await parseAgentFile(text, file("opencode"));
  assert.equal(got?.name, "team/docs");
  assert.equal(got?.model, "anthropic/claude-x");
  assert.deepEqual(got?.disallowedTools, ["bash", "edit"]);
  assert.equal(got?.tools, undefined);
  const primary = await parseAgentFile(
    "---\ndescription: d\nmode: primary\n---\nx",
    file("opencode"),
  );
  assert.equal(primary, undefined);
});

Deno.test("Codex: a TOML agent with developer_instructions; read-only sandbox narrows", async () => {
  const got = await parseAgentFile(
    'name = "auditor"\ndescription = "Audits"\nsandbox_mode = "read-only"\n' +
      'developer_instructions = "Report risks."\nmodel = "gpt-5"\n',
    file("codex", "/p/auditor.toml"),
  );
  assert.equal(got?.prompt, "Report risks.");
  assert.equal(got?.readOnly, true);
  assert.equal(got?.model, "gpt-5");
  const wide = await parseAgentFile(
    'name = "a"\ndescription = "d"\nsandbox_mode = "danger-full-access"\n' +
      'developer_instructions = "x"\n',
    file("codex", "/p/a.toml"),
  );
  assert.equal(wide?.readOnly, undefined, "a wider sandbox_mode asks for nothing");
  await assert.rejects(
    parseAgentFile('name = "a"\ndescription = "d"\n', file("codex", "/p/a.toml")),
    /has no developer_instructions/,
  );
  await assert.rejects(
    parseAgentFile('name = "a\n', file("codex", "/p/a.toml")),
    /\/p\/a\.toml, line 1: it is not valid TOML/,
  );
});
