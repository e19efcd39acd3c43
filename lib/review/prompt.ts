/**
 * The reviewer's system prompt: it replaces the harness's for a review turn. Its text is harness
 * data (`[prompts] reviewer`, else `harnesses/_shared/reviewer.md`); the tools stay the
 * harness's, in a read-only sandbox.
 */
import { fillPromptVariables } from "../harness/prompt.ts";
import type { Harness, PromptVars } from "../harness/types.ts";

/** The harness's reviewer prompt with its `{{variables}}` filled like a system prompt's. */
export function reviewerPrompt(h: Harness, vars: PromptVars): string {
  return fillPromptVariables(h.texts.reviewer, h, vars);
}
