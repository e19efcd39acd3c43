/**
 * `interpreter export ID|--last`: finds the saved session as `resume` does and writes it as
 * Markdown, HTML, its raw records or an ATIF trajectory, to stdout or to `-o FILE` (written whole,
 * never through a link, as `exec -o` writes).
 */
import { resolve } from "node:path";
import { configHome } from "../../config/load.ts";
import { UsageError } from "../../errors.ts";
import { exportSession, findSessionToExport, formatOfFile } from "../../session/export/export.ts";
import { writeOutputText } from "../../session/run_outputs.ts";
import type { ExportArgs } from "./export_args.ts";
import { resolveWorkdir } from "../../session/workdir.ts";

/** Runs `interpreter export`; the exit code. */
export async function runExport(args: ExportArgs): Promise<number> {
  if ((args.id === undefined) === !args.last) {
    throw new UsageError(
      args.id === undefined
        ? "Name the session to export"
        : `Give either a session ("${args.id}") or --last, not both`,
      { hint: 'Run "interpreter export ID" or "interpreter export --last"' },
    );
  }
  const cwd = await resolveWorkdir(args.cd);
  const home = configHome(Deno.env.toObject(), cwd);
  const target = args.id !== undefined
    ? { id: args.id }
    : { last: true as const, ...(args.all ? { all: true } : {}) };
  const found = await findSessionToExport(target, { cwd, home });
  const format = args.format ?? (args.output ? formatOfFile(args.output) : undefined) ?? "md";
  const text = await exportSession(found.file, format, { home });
  if (args.output === undefined) {
    await writeAll(Deno.stdout, new TextEncoder().encode(text));
    return 0;
  }
  const file = resolve(cwd, args.output);
  // No session runs here: the file is written whole and never through a link below cwd.
  await writeOutputText(file, text, { cwd, mode: "danger-full-access", writableRoots: [] });
  // deno-lint-ignore no-console -- the command's one line of output
  console.error(`Exported session ${found.id} (${format}) to ${file}`);
  return 0;
}

async function writeAll(out: { write(p: Uint8Array): Promise<number> }, data: Uint8Array) {
  for (let done = 0; done < data.length;) done += await out.write(data.subarray(done));
}
