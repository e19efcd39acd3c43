/** `interpreter export`'s arguments, as the command line parsed them (lib/cli/export_cli.ts). */

/** What `interpreter export` was asked, as the command line said it. */
export interface ExportArgs {
  /** A session id, the start of one, a session file or a session's name. */
  id?: string;
  /** The newest session (of the directory unless `all`). */
  last?: boolean;
  all?: boolean;
  /** `md`, `html`, `jsonl` or `atif`; default: `-o`'s extension, else `md`. */
  format?: "md" | "html" | "jsonl" | "atif";
  /** The file to write; stdout without it. */
  output?: string;
  cd?: string;
}
