/**
 * `/init` in the REPL: the model studies the repository and writes a first AGENTS.md. When one
 * exists the user is asked first, and no answers no; the model writes a draft that is moved into
 * place only after the turn, and only over the AGENTS.md the user agreed to replace
 * (lib/session/init_agents_md.ts runs it; lib/workspace/init_agents_md.ts has the whole design).
 */
import { terminalText } from "../../approval/visible.ts";
import { runInit } from "../../session/init_agents_md.ts";
import type { PromptOutcome, Session } from "../../session/open.ts";
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
  const run = await runInit(ctx.session(), {
    runTurn: (prompt) => ctx.runTurn(prompt),
    confirmReplace: (target, when) =>
      yes(
        ctx,
        when === "exists"
          ? `${terminalText(target)} exists. Replace it with a new one?`
          : `${terminalText(target)} changed while /init ran. Replace it with the draft?`,
      ),
  });
  if (run.status === "plan_mode") {
    ctx.print(["/init writes a file, and plan mode only reads: leave it with /plan first"]);
  } else if (run.status === "kept") {
    ctx.print([`Kept ${terminalText(run.target)} as it is; nothing was sent to the model`]);
  } else ctx.print([ctx.style.dim(terminalText(run.result.message))]);
}

/** Asks a yes/no question; only y or yes counts as yes. */
async function yes(ctx: InitContext, question: string): Promise<boolean> {
  const answer = await ctx.ask(`${question} [y/N] › `);
  return /^\s*y(es)?\s*$/i.test(answer ?? "");
}
