import { HarnessError } from "../errors.ts";
import { globRegExp } from "./_glob.ts";
import { deferredToolNames } from "./deferred.ts";
import { sandboxParagraph } from "./sandbox_text.ts";
import type { Harness, ModelFacts, PromptVars } from "./types.ts";

/** A `PromptVars` field that holds text. */
type TextVar = Exclude<keyof PromptVars, "sandboxFacts">;

/** Template variable name → the `PromptVars` field it reads. */
export const PROMPT_VARIABLES: Readonly<Record<string, TextVar>> = Object.freeze({
  cwd: "cwd",
  date: "date",
  platform: "platform",
  shell: "shell",
  model: "model",
  git_status: "gitStatus",
  agents_md: "agentsMd",
  sandbox: "sandbox",
  deferred_tools: "deferredTools",
  skills: "skills",
  available_skills: "availableSkills",
  guidance: "guidance",
  claude_md: "claudeMd",
  is_git: "isGit",
  git_branch: "gitBranch",
  git_main_branch: "gitMainBranch",
  git_user: "gitUser",
  git_status_short: "gitStatusShort",
  git_recent_commits: "gitRecentCommits",
  os_version: "osVersion",
  date_long: "dateLong",
  datetime: "datetime",
  timezone: "timezone",
  folder_tree: "folderTree",
  date_short: "dateShort",
  workspace_root: "workspaceRoot",
  terminal_screen: "terminalScreen",
  model_name: "modelName",
  knowledge_cutoff: "knowledgeCutoff",
  gemini_md: "geminiMd",
  project_tree: "projectTree",
  agent_types: "agentTypes",
  subagent_entries: "subagentEntries",
});

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** Throws HarnessError when `template` (read from `file`) uses an unknown `{{variable}}`. */
export function checkPromptTemplate(template: string, file: string, what = "system prompt"): void {
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (!Object.hasOwn(PROMPT_VARIABLES, m[1])) {
      const line = template.slice(0, m.index).split("\n").length;
      throw new HarnessError(
        `Invalid ${what} "${file}" at line ${line}: unknown variable "{{${m[1]}}}"`,
        { hint: `Use one of: ${Object.keys(PROMPT_VARIABLES).map((v) => `{{${v}}}`).join(", ")}` },
      );
    }
  }
}

/** The harness's system prompt with every `{{variable}}` replaced from `vars`. */
export function renderSystemPrompt(h: Harness, vars: PromptVars): string {
  return fillPromptVariables(h.systemPrompt, h, vars);
}

/** `vars` with the values the harness supplies itself where `vars` leaves them unset. */
export function promptValues(h: Harness, vars: PromptVars): PromptVars {
  return {
    ...vars,
    deferredTools: vars.deferredTools ?? deferredToolNames(h, new Map()).join("\n"),
    skills: vars.skills ?? "",
    availableSkills: vars.availableSkills ?? "",
    guidance: vars.guidance ?? h.guidance ?? "",
    ...modelFactValues(h, vars),
    sandbox: vars.sandboxFacts
      ? sandboxParagraph(h.texts.sandbox, vars.sandboxFacts)
      : vars.sandbox,
  };
}

/** A spec's `[[model_facts]]` as the harness keeps them (nothing when there are none). */
export function modelFactsOf(
  entries: { match: string[]; name: string; knowledge_cutoff: string }[],
): { modelFacts?: ModelFacts[] } {
  if (entries.length === 0) return {};
  return {
    modelFacts: entries.map((f) => ({
      match: f.match,
      name: f.name,
      knowledgeCutoff: f.knowledge_cutoff,
    })),
  };
}

/**
 * `{{model_name}}` and `{{knowledge_cutoff}}` from the harness's first `[[model_facts]]` entry
 * matching the model: the display name (else the model id) and the cutoff (else empty).
 */
function modelFactValues(
  h: Harness,
  vars: PromptVars,
): Pick<PromptVars, "modelName" | "knowledgeCutoff"> {
  const facts = h.modelFacts?.find((f) => f.match.some((g) => globRegExp(g).test(vars.model)));
  return {
    modelName: vars.modelName ?? facts?.name ?? vars.model,
    knowledgeCutoff: vars.knowledgeCutoff ?? facts?.knowledgeCutoff ?? "",
  };
}

/** `text` with every `{{variable}}` replaced from `vars` (and the harness's own values). */
export function fillPromptVariables(text: string, h: Harness, vars: PromptVars): string {
  const all = promptValues(h, vars);
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const key = PROMPT_VARIABLES[name];
    return key === undefined ? whole : all[key] ?? "";
  });
}
