/** The working directory a command is run in: `-C/--cd` resolved against this process's. */
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";

/** Resolves `-C/--cd` against the current directory and checks it is a directory. */
export async function resolveWorkdir(cd: string | undefined): Promise<string> {
  const dir = resolve(Deno.cwd(), cd ?? ".");
  const info = await Deno.stat(dir).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new UsageError(`Cannot use "${dir}" as the working directory: it is not a directory`, {
      hint: "Pass an existing directory to -C/--cd",
    });
  }
  return dir;
}
