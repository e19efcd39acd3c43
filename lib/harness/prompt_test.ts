import assert from "node:assert/strict";
import { HarnessError } from "../errors.ts";
import { checkPromptTemplate, PROMPT_VARIABLES, renderSystemPrompt } from "./prompt.ts";
import type { Harness, PromptVars } from "./types.ts";

const VARS: PromptVars = {
  cwd: "/w",
  date: "2026-01-02",
  platform: "linux",
  shell: "bash",
  model: "m1",
  gitStatus: "clean",
  agentsMd: "be nice",
  sandbox: "workspace-write",
  skills: "- pdf: Read PDFs",
  gitBranch: "main",
};

function harness(systemPrompt: string): Harness {
  return {
    id: "t",
    label: "T",
    dir: "/t",
    systemPrompt,
    tools: [],
    wireApis: ["chat"],
    reasoningReplay: "all",
    reminders: [],
    request: {},
    context: [],
    errorTemplate: "{message}",
    unknownToolTemplate: "{name}",
    match: { models: [], providers: [], baseUrls: [], wireApis: [], priority: 0 },
  };
}

Deno.test("renderSystemPrompt() replaces every variable", () => {
  const template = Object.keys(PROMPT_VARIABLES).map((v) => `${v}={{${v}}}`).join(";");
  assert.equal(
    renderSystemPrompt(harness(template), VARS),
    "cwd=/w;date=2026-01-02;platform=linux;shell=bash;model=m1;git_status=clean;" +
      "agents_md=be nice;sandbox=workspace-write;deferred_tools=;skills=- pdf: Read PDFs;" +
      "guidance=;claude_md=;is_git=;git_branch=main;git_main_branch=;git_user=;" +
      "git_status_short=;git_recent_commits=;os_version=;date_long=;datetime=;timezone=;" +
      "folder_tree=",
  );
  assert.equal(renderSystemPrompt(harness("{{ cwd }} {{cwd}}"), VARS), "/w /w");
});

Deno.test("checkPromptTemplate() accepts known variables and rejects unknown ones", () => {
  checkPromptTemplate("{{cwd}} {single} {{ date }}", "p.md");
  assert.throws(
    () => checkPromptTemplate("a\nb {{nope}}", "p.md"),
    (err) =>
      err instanceof HarnessError &&
      err.message === 'Invalid system prompt "p.md" at line 2: unknown variable "{{nope}}"',
  );
});
