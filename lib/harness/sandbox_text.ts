/** The `{{sandbox}}` prompt variable, worded by a harness's sandbox texts. */
import { fillTemplate } from "./_template.ts";
import type { SandboxPromptFacts, SandboxTexts } from "./types.ts";

/** Placeholders of `confined`, `unconfined` and the approval texts. */
export const SANDBOX_FACT_PLACEHOLDERS = ["description", "mode", "policy"] as const;
/** Placeholders of the sandbox `template`. */
export const SANDBOX_TEMPLATE_PLACEHOLDERS = [
  "where",
  "approval",
  ...SANDBOX_FACT_PLACEHOLDERS,
] as const;

/**
 * The paragraph that tells the model where its commands run and what approval allows: the
 * `confined` text when the sandbox is enforced (or commands need none), else `unconfined`,
 * then the approval policy's text, joined by `template` and trimmed.
 */
export function sandboxParagraph(texts: SandboxTexts, facts: SandboxPromptFacts): string {
  const confined = facts.enforced || facts.mode === "danger-full-access";
  const values: Record<string, string> = {
    description: facts.description,
    mode: facts.mode,
    policy: facts.policy,
  };
  const fill = (text: string) => fillTemplate(text, (name) => lookup(values, name));
  values.where = fill(confined ? texts.confined : texts.unconfined);
  values.approval = fill(texts.approval[facts.policy] ?? "");
  return fill(texts.template).trim();
}

function lookup(values: Record<string, string>, name: string) {
  return Object.hasOwn(values, name) ? { value: values[name] } : undefined;
}
