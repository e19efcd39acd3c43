/**
 * What a run writes about itself outside the model's tools (`exec -o`, `--trajectory`, `review
 * -o`): files written never through a link, at the place the session's settings in use allow
 * (lib/workspace/output_file.ts), and the hash of the harness files a trajectory names.
 */
import { harnessDataHash } from "../harness/data_hash.ts";
import type { WholeFileWriter } from "../trajectory/write.ts";
import {
  type OutputPlace,
  outputPlaceOf,
  outputWriter,
  writeOutputFile,
} from "../workspace/output_file.ts";
import type { Session } from "./types.ts";

export type { OutputPlace };

/** Where `session`'s output files may go now: its cwd, and its sandbox mode in use. */
export function outputPlaceFor(session: Session, env: Record<string, string>): OutputPlace {
  const { sandboxMode, cwd } = session.settings;
  const values = {
    sandbox_mode: sandboxMode,
    sandbox_workspace_write: session.config.sandbox_workspace_write,
  };
  return outputPlaceOf(values, cwd, env);
}

/** Writes `text` to `path` whole and never through a link (see `writeOutputFile()`). */
export function writeOutputText(path: string, text: string, place: OutputPlace): Promise<void> {
  return writeOutputFile(path, text, place);
}

/** `writeOutputText()` at `session`'s place, as `writeTrajectory()` takes a writer. */
export function outputWriterFor(session: Session, env: Record<string, string>): WholeFileWriter {
  return outputWriter(outputPlaceFor(session, env));
}

/** The hash of the harness's files, for a trajectory; undefined when it has no folder. */
export async function harnessHashOf(session: Session): Promise<string | undefined> {
  const dir = session.info.harnessDir;
  return dir ? await harnessDataHash(dir) : undefined;
}
