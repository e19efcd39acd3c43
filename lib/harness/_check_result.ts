import { HarnessError } from "../errors.ts";
import { checkResultPlaceholders, placeholdersFor } from "./placeholders.ts";
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

/** `error_if` names output fields and `failed_template` uses placeholders the capability has. */
export function checkFailedResult(tool: HarnessTool, where: (key: string) => string): void {
  const allowed = placeholdersFor(tool.capability);
  for (const field of tool.result.errorIf ?? []) {
    if (!allowed || allowed.includes(field)) continue;
    const name = tool.declaration.name;
    throw new HarnessError(
      `${where("result.error_if")}: tool "${name}" names unknown output field "${field}"`,
    );
  }
  const failed = tool.result.failedTemplate;
  if (failed === undefined) return;
  const asTemplate = { ...tool, result: { template: failed } };
  checkResultPlaceholders(asTemplate, (key) => where(key.replace("template", "failed_template")));
}
