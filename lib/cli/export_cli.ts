/**
 * `interpreter export ID|--last [--all] [--format md|html|jsonl|atif] [-o FILE] [-C DIR]`: a saved
 * session as a document, on stdout or in a file. The work is `lib/modes/export/export.ts`'s,
 * loaded only when the command runs.
 */
import { Option } from "commander";
import type { Command } from "commander";
import { UsageError } from "../errors.ts";
import type { ExportArgs } from "../modes/export/export_args.ts";
import type { Invocation } from "./flags.ts";

/** Adds `export` to `program`. */
export function addExportCommand(program: Command, onInvoke: (inv: Invocation) => void): void {
  program.command("export")
    .description("write a saved session as Markdown, HTML, its raw records or an ATIF trajectory")
    .argument("[id]", "session id, the start of one, a session file or a session's name")
    .option("--last", "the newest session of this directory")
    .option("--all", "with --last: the newest session of any directory")
    .addOption(
      new Option("-f, --format <format>", "md (default), html, jsonl (the session file) or atif")
        .choices(["md", "html", "jsonl", "atif"]),
    )
    .option("-o, --output <file>", "write to FILE (never through a link) instead of stdout")
    .option("-C, --cd <dir>", "the directory whose sessions --last looks at")
    .action((id: string | undefined, flags: Omit<ExportArgs, "id">) => {
      if ((id === undefined) === !flags.last) {
        throw new UsageError(
          id === undefined
            ? "Name the session to export"
            : `Give either a session ("${id}") or --last, not both`,
          { hint: 'Run "interpreter export ID" or "interpreter export --last"' },
        );
      }
      onInvoke({ mode: "export", export: { ...flags, ...(id === undefined ? {} : { id }) } });
    });
}
