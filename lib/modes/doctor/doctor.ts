/** `interpreter doctor [--json]`: filled in by the next commit. */
import type { DoctorArgs } from "./doctor_args.ts";

/** Runs the checks; the exit code. */
export function runDoctor(_args: DoctorArgs): Promise<number> {
  return Promise.resolve(0);
}
