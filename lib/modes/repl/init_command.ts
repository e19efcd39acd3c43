/**
 * `/init` in the REPL: the model studies the repository and writes a first AGENTS.md. When one
 * exists the user is asked first, and no answers no; the model writes a draft that is moved into
 * place only after the turn, and only over the AGENTS.md the user agreed to replace
 * (lib/workspace/init_agents_md.ts has the whole design).
 */
import { terminalText } from "../../approval/visible.ts";
import type { PromptOutcome, Session } from "../../session/open.ts";
import { finishInit, planInit } from "../../workspace/init_agents_md.ts";
import type { Style } from "../term/style.ts";

/** What `/init` uses of the REPL's command context. */
export interface InitContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Reads one answer line; null at end of input. */
  ask(prompt: string): Promise<string | null>;
  /** Runs one turn as a typed prompt would; undefined when it failed before it could start. */
  runTurn(prompt: string): Promise<PromptOutcome | undefined>;
}

/** `/init`, as the command list takes it. */
export const INIT_COMMAND = {
  name: "init",
  summary: "study the repository and write a first AGENTS.md (asks before replacing one)",
  run: init,
};

async function init(_: string, ctx: InitContext): Promise<void> {
  const session = ctx.session();
  if (session.planMode) {
    ctx.print(["/init writes a file, and plan mode only reads: leave it with /plan first"]);
    return;
  }
  const plan = await planInit(session.info.cwd);
  const shown = terminalText(plan.target);
  if (plan.existing.exists && !await yes(ctx, `${shown} exists. Replace it with a new one?`)) {
    ctx.print([`Kept ${shown} as it is; nothing was sent to the model`]);
    return;
  }
  const outcome = await ctx.runTurn(plan.prompt);
  const result = await finishInit(plan, {
    completed: outcome?.status === "completed",
    confirmReplace: () => yes(ctx, `${shown} changed while /init ran. Replace it with the draft?`),
  });
  ctx.print([ctx.style.dim(terminalText(result.message))]);
}

/** Asks a yes/no question; only y or yes counts as yes. */
async function yes(ctx: InitContext, question: string): Promise<boolean> {
  const answer = await ctx.ask(`${question} [y/N] › `);
  return /^\s*y(es)?\s*$/i.test(answer ?? "");
}
