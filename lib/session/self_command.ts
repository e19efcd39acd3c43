/**
 * How this program is started again (eval runs `interpreter exec` once per trial): a compiled
 * binary runs itself, `deno run` runs `main.ts` (or the bundle's main.js it was started from) with
 * the same permission flags it was started with (one source: sandbox/deno_flags.json).
 */
import { fileURLToPath } from "node:url";
import { DENO_PERMISSION_FLAGS } from "../../sandbox/deno_flags.ts";
import { isCompiledBinary } from "../../sandbox/fs_helper_client.ts";
import { bundledProgram } from "../../sandbox/bundled_program.ts";

/** The program and leading arguments that run `interpreter`. */
export function interpreterCommand(execPath = Deno.execPath()): string[] {
  if (isCompiledBinary(execPath)) return [execPath];
  const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  return [
    execPath,
    "run",
    "--quiet",
    "--config",
    file("../../deno.json"),
    ...DENO_PERMISSION_FLAGS,
    bundledProgram("main.ts") ?? file("../../main.ts"),
  ];
}
