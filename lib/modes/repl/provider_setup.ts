/**
 * The REPL's provider setup: on a first start with nothing chosen and no provider set up, the
 * offer to set one up (first_run.ts, skippable); then, when opening a session finds a provider
 * key missing, the question for it on the terminal (key_setup.ts), unless the setup was skipped.
 * Never in `exec`.
 */
import { terminalText } from "../../approval/visible.ts";
import type { SessionConfig } from "../../session/open.ts";
import { needsFirstRun } from "../../config/provider_setup.ts";
import type { ReplInput } from "./input.ts";
import type { Transcript } from "./render.ts";

/** What the provider setup uses of the REPL. */
export interface ProviderSetupParts {
  home: string;
  env: Record<string, string>;
  /** `interactive`: stdin is a terminal; `plain`: no escape sequences (no line editing). */
  term: { interactive: boolean; plain: boolean };
  transcript: Transcript;
  input: ReplInput;
  /** Writes to stdout, for the secret prompt. */
  write: (text: string) => void;
}

/** The first-run offer and the missing-key question of one REPL run. */
export class ProviderSetup {
  #p: ProviderSetupParts;
  /** The user skipped the first-run setup: a missing key is then an error, not a question. */
  #skipped = false;

  constructor(parts: ProviderSetupParts) {
    this.#p = parts;
  }

  /**
   * With no provider set up yet, offers to set one up (skippable): only on a terminal, for a
   * new session (not `resume`) and when the command line chose no model, provider or profile.
   */
  async firstRun(config: SessionConfig, resuming: boolean): Promise<void> {
    const { home, env, term, transcript, input } = this.#p;
    const c = config;
    const chosen = c.model || c.oss || c.profile || (c.overrides?.length ?? 0) > 0;
    if (resuming || !term.interactive || chosen) return;
    if (!(await needsFirstRun(home, env))) return;
    // The setup's modules load only when it is offered.
    const { runFirstRun } = await import("./first_run.ts");
    const picked = await runFirstRun(home, {
      // It lists the model names the local servers report.
      print: (text) => transcript.lines([terminalText(text)]),
      readLine: (prompt) => input.line(prompt).then((line) => line ?? undefined),
    }, { env });
    this.#skipped = picked === undefined;
  }

  /** A provider key that is missing is asked for on a terminal, unless the setup was skipped. */
  async enterKey(error: unknown): Promise<boolean> {
    const { home, input, term, transcript, write } = this.#p;
    if (!term.interactive || this.#skipped) return false;
    const [{ askForMissingKey }, { readSecret }] = await Promise.all([
      import("./key_setup.ts"),
      import("./secret_input.ts"),
    ]);
    return await askForMissingKey(error, home, {
      print: (text) => transcript.lines([terminalText(text)]),
      readSecret: (prompt) => readSecret(input, prompt, { write, lineEditing: !term.plain }),
    });
  }
}
