import { HarnessError } from "../errors.ts";
import type { HarnessTool } from "./types.ts";

/** `shift` may only name wire arguments that are mapped to a field. */
export function checkShift(tool: HarnessTool, at: (key: string) => string): void {
  for (const wire of Object.keys(tool.shift ?? {})) {
    if (!tool.args[wire]) {
      throw new HarnessError(`${at(`shift.${wire}`)}: "${wire}" is not mapped to a field`, {
        hint: `Map ${wire} in args, or remove it from shift`,
      });
    }
  }
}

/** A `result` table of harness.toml as a `ResultFormat`. */
export function resultFormat(r: {
  template: string;
  empty_output?: string;
  error_if?: string[];
  failed_template?: string;
  parts?: string;
  last_part?: string;
}): HarnessTool["result"] {
  const format: HarnessTool["result"] = { template: r.template, emptyOutput: r.empty_output };
  if (r.error_if) format.errorIf = r.error_if;
  if (r.failed_template !== undefined) format.failedTemplate = r.failed_template;
  if (r.parts) format.parts = { field: r.parts, last: r.last_part };
  return format;
}
