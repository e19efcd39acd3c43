/** What `interpreter exec` runs with besides its session: the front end's own options. */

/** Exec's own options (the session's are a `SessionConfig`). */
export interface ExecOptions {
  /** JSONL events on stdout (`--json`), what the Codex SDK reads. */
  json: boolean;
  /** The JSON Schema file the final answer must match. */
  outputSchema?: string;
  /** Image files to attach to the prompt; each entry may be a comma list. */
  images: string[];
  /** Also write the final answer to this file. */
  outputLastMessage?: string;
  /** Write the run as an ATIF trajectory (Harbor's format) to this file at its end. */
  trajectory?: string;
  /** `--wait-wakeups`: run the model's wake-ups before ending (else they are listed). */
  waitWakeups?: boolean;
  /** `exec review`: what to review, as given. */
  review?: ReviewArgs;
}

/** The flags and argument of `exec review`, checked when the review starts. */
export interface ReviewArgs {
  uncommitted?: boolean;
  base?: string;
  commit?: string;
  title?: string;
  /** Free-form instructions; "-" reads them from stdin. */
  prompt?: string;
}
