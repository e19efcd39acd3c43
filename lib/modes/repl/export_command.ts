/**
 * `/export [--format md|html|jsonl|atif] [FILE]`: this session as a document. Without FILE it is
 * a Markdown file named after the session in the working directory (asking before replacing
 * one); a FILE's extension picks its format unless `--format` does. The file is written whole and
 * never through a link, at the place the session's sandbox allows, as `exec -o` writes.
 */
import { resolve } from "node:path";
import { terminalText } from "../../approval/visible.ts";
import { UsageError } from "../../errors.ts";
import {
  EXPORT_EXTENSIONS,
  type ExportFormat,
  exportFormatOf,
  exportSession,
  formatOfFile,
} from "../../session/export/export.ts";
import type { Session } from "../../session/open.ts";
import { outputPlaceFor, writeOutputText } from "../../session/run_outputs.ts";
import { savedSessionName } from "../../session/saved_sessions.ts";
import type { Style } from "../term/style.ts";

/** What `/export` uses of the REPL's command context. */
export interface ExportContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  ask(prompt: string): Promise<string | null>;
}

/** `/export`, as the command list takes it. */
export const EXPORT_COMMAND = {
  name: "export",
  summary: "save this conversation as Markdown (.html, .jsonl, .json for ATIF): /export [FILE]",
  run: exportCommand,
};

async function exportCommand(arg: string, ctx: ExportContext): Promise<void> {
  const session = ctx.session();
  const { sessionFile, sessionId } = session.status();
  if (!sessionFile || !sessionId) {
    return ctx.print(["This session is not saved, so there is nothing to export"]);
  }
  const { format: given, file } = exportArgs(arg);
  const format = given ?? (file ? formatOfFile(file) : undefined) ?? "md";
  const cwd = session.settings.cwd;
  const name = file ?? await defaultName(session, sessionId, format);
  const path = resolve(cwd, name);
  if (file === undefined && await exists(path)) {
    const answer = await ctx.ask(`${terminalText(path)} exists; replace it? [y/N] `);
    if (!/^y(es)?$/i.test(answer?.trim() ?? "")) {
      return ctx.print(["Not exported; /export FILE writes to another file"]);
    }
  }
  const text = await exportSession(sessionFile, format, { home: session.home });
  await writeOutputText(path, text, outputPlaceFor(session, Deno.env.toObject()));
  ctx.print([`Exported this session (${LABELS[format]}) to ${terminalText(path)}`]);
}

const LABELS: Record<ExportFormat, string> = {
  md: "Markdown",
  html: "HTML",
  jsonl: "its records as JSONL",
  atif: "an ATIF trajectory",
};

/** `[--format F | -f F] [FILE]`; a `UsageError` for anything else. */
export function exportArgs(arg: string): { format?: ExportFormat; file?: string } {
  const words = arg.trim() === "" ? [] : arg.trim().split(/\s+/);
  let format: ExportFormat | undefined;
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const inline = word.match(/^--format=(.*)$/);
    if (inline) format = exportFormatOf(inline[1]);
    else if (word === "--format" || word === "-f") {
      if (words[i + 1] === undefined) throw usage(`${word} needs a format`);
      format = exportFormatOf(words[++i]);
    } else rest.push(word);
  }
  const option = rest.find((w) => w.startsWith("-"));
  if (option !== undefined) throw usage(`Unknown /export option "${option}"`);
  // A file name may hold spaces: what is left is one path.
  return { ...(format ? { format } : {}), ...(rest.length ? { file: rest.join(" ") } : {}) };
}

function usage(message: string): UsageError {
  return new UsageError(message, {
    hint: "Use /export [--format md|html|jsonl|atif] [FILE]",
  });
}

/** The session's name as a file name, else `session-ID`, with the format's extension. */
async function defaultName(session: Session, id: string, format: ExportFormat): Promise<string> {
  const name = await savedSessionName(session.home, id).catch(() => undefined);
  const slug = name?.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return `${slug || `session-${id}`}${EXPORT_EXTENSIONS[format]}`;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
