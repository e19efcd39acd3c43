import assert from "node:assert/strict";
import { HarnessError } from "../errors.ts";
import { checkPromptTemplate, PROMPT_VARIABLES, renderSystemPrompt } from "./prompt.ts";
import type { Harness, HarnessTexts, PromptVars } from "./types.ts";

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

const TEXTS: HarnessTexts = {
  compaction: "Summarize.",
  compactionSummary: "{summary}",
  reviewer: "Review.",
  sandbox: {
    template: "<{mode}> {where} {approval}",
    confined: "Sandboxed: {description}.",
    unconfined: "Not sandboxed ({description}).",
    approval: { "untrusted": "Ask first.", "on-request": "", "on-failure": "", "never": "Never." },
  },
  files: { compaction: "", compaction_summary: "", reviewer: "", sandbox: "" },
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
    interruptedText: "interrupted",
    match: { models: [], providers: [], baseUrls: [], wireApis: [], priority: 0 },
    texts: TEXTS,
  };
}

Deno.test("renderSystemPrompt() replaces every variable", () => {
  const template = Object.keys(PROMPT_VARIABLES).map((v) => `${v}={{${v}}}`).join(";");
  assert.equal(
    renderSystemPrompt(harness(template), VARS),
    "cwd=/w;date=2026-01-02;platform=linux;shell=bash;model=m1;git_status=clean;" +
      "agents_md=be nice;sandbox=workspace-write;deferred_tools=;skills=- pdf: Read PDFs;" +
      "available_skills=;guidance=;claude_md=;is_git=;git_branch=main;git_main_branch=;git_user=;" +
      "git_status_short=;git_recent_commits=;os_version=;date_long=;datetime=;timezone=;" +
      "folder_tree=;date_short=;workspace_root=;terminal_screen=;model_name=m1;" +
      "knowledge_cutoff=;gemini_md=;project_tree=;agent_types=;subagent_entries=",
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

Deno.test("{{sandbox}} is worded by the harness's sandbox texts when the facts are given", () => {
  const h = harness("[{{sandbox}}]");
  const facts = { mode: "workspace-write", policy: "untrusted", description: "bwrap" };
  assert.equal(
    renderSystemPrompt(h, { ...VARS, sandboxFacts: { ...facts, enforced: true } }),
    "[<workspace-write> Sandboxed: bwrap. Ask first.]",
  );
  assert.equal(
    renderSystemPrompt(h, { ...VARS, sandboxFacts: { ...facts, enforced: false } }),
    "[<workspace-write> Not sandboxed (bwrap). Ask first.]",
  );
  // danger-full-access needs no sandbox, so it counts as confined; an empty approval text trims.
  const full = { mode: "danger-full-access", policy: "on-request", description: "off" };
  assert.equal(
    renderSystemPrompt(h, { ...VARS, sandboxFacts: { ...full, enforced: false } }),
    "[<danger-full-access> Sandboxed: off.]",
  );
  // Without the facts, the given text stays.
  assert.equal(renderSystemPrompt(h, VARS), "[workspace-write]");
});

Deno.test("{{model_name}} and {{knowledge_cutoff}} come from the first matching [[model_facts]]", () => {
  const h: Harness = {
    ...harness("{{model_name}} ({{model}}), cutoff [{{knowledge_cutoff}}]"),
    modelFacts: [
      { match: ["*opus-4-5*", "*opus-4.5*"], name: "Opus 4.5", knowledgeCutoff: "May 2025" },
      { match: ["*opus-4*"], name: "Opus 4", knowledgeCutoff: "January 2025" },
    ],
  };
  const render = (model: string) => renderSystemPrompt(h, { ...VARS, model });
  assert.equal(
    render("claude-opus-4-5-20251101"),
    "Opus 4.5 (claude-opus-4-5-20251101), cutoff [May 2025]",
  );
  assert.equal(
    render("anthropic/Claude-Opus-4.5"),
    "Opus 4.5 (anthropic/Claude-Opus-4.5), cutoff [May 2025]",
  );
  assert.equal(render("claude-opus-4-1"), "Opus 4 (claude-opus-4-1), cutoff [January 2025]");
  // An unknown model is named by its id and has no cutoff.
  assert.equal(render("glm-4.6"), "glm-4.6 (glm-4.6), cutoff []");
});
