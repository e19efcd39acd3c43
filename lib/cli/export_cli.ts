/** `interpreter export`'s flags; lib/modes/export/export.ts checks them and does the work. */
import { type Command, Option } from "commander";
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
      onInvoke({ mode: "export", export: { ...flags, ...(id === undefined ? {} : { id }) } });
    });
}
