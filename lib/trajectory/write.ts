/** Writes a trajectory file whole: a reader (Harbor, `eval report`) never sees half of one. */
import { dirname, resolve } from "node:path";
import { UserError } from "../errors.ts";
import type { Trajectory } from "./atif.ts";

/**
 * Writes `trajectory` as indented JSON to `path` through a temp file beside it, renamed over the
 * target; the folder is made when missing.
 */
export async function writeTrajectory(path: string, trajectory: Trajectory): Promise<void> {
  await writeJsonWhole(path, trajectory).catch((error) => {
    throw new UserError(
      `Cannot write the trajectory to "${resolve(path)}": ${(error as Error).message}`,
      { hint: "Pass --trajectory a file in a directory you can write to", cause: error },
    );
  });
}

/** Writes `value` as indented JSON through a temp file renamed over `path` (folder made). */
export async function writeJsonWhole(path: string, value: unknown): Promise<void> {
  await writeTextWhole(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes `text` through a temp file beside `path`, renamed over it (folder made when missing). */
export async function writeTextWhole(path: string, text: string): Promise<void> {
  const file = resolve(path);
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(temp, text, { createNew: true });
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
