/**
 * The REPL's question at the start of a session in a trusted project that defines runnable
 * definitions the user has not trusted (hooks, MCP servers, other agents' commands with shell
 * pre-execution, allow rules, env, status lines): it lists them and asks once per run; a yes trusts them all
 * (as `interpreter trust` does), a no leaves them off in this run's sessions without asking again.
 */
import type { DefinitionTrustQuestion } from "../../session/open.ts";
import type { Style } from "../term/style.ts";
import { terminalText } from "../../approval/visible.ts";

/** What the question shows and reads through. */
export interface TrustQuestionIO {
  print(lines: string[]): void;
  /** One line typed after `prompt`; null at end of input. */
  line(prompt: string): Promise<string | null>;
  style: Style;
  /** Plain mode: yes and no as numbered options (plain_choices.ts). */
  numbered?: boolean;
}

/** The REPL's `io.trustDefinitions`: asks until the user said no once. */
export function replTrustQuestion(
  io: TrustQuestionIO,
): (ask: DefinitionTrustQuestion) => Promise<boolean> {
  let declined = false;
  return async ({ projectRoot, definitions }) => {
    if (declined) return false;
    // Loaded when there is something to ask: most sessions never do.
    const { definitionCount, definitionLines, saidYes, trustEffect } = await import(
      "../term/trust_lines.ts"
    );
    io.print([
      `The project ${terminalText(projectRoot)} defines ${definitionCount(definitions)} you have ` +
      `not trusted yet; trusted, ${trustEffect(definitions)}:`,
      ...definitionLines(definitions),
    ]);
    const them = definitions.length === 1 ? "it" : "them";
    const yes = io.numbered
      ? await (await import("./plain_choices.ts")).numberedYes(
        { print: io.print, read: io.line },
        { question: `Trust ${them}?`, yes: `yes, trust ${them}`, no: `no, leave ${them} off` },
      )
      : saidYes(await io.line(`Trust ${them}? [y/N] `));
    declined = !yes;
    io.print([
      io.style.dim(
        yes
          ? "Trusted; they stay trusted while their definitions stay the same"
          : 'Not trusted: they stay off; "interpreter trust" trusts them later',
      ),
    ]);
    return yes;
  };
}
