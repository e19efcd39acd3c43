/**
 * The checks of a harness's texts against the placeholders each may use: result templates
 * against the capability's sample outputs, error texts against their fields. They run when a
 * harness folder is loaded from outside the built-in set (`loadHarnessDir()`); the built-in
 * harnesses are checked by their tests, so a session on one does not load these modules.
 */
import { HarnessError } from "../errors.ts";
import { checkResultPlaceholders, placeholdersFor } from "./placeholders.ts";
import type { HarnessTool } from "./types.ts";

export { checkResultPlaceholders };
export { checkHarnessTexts, checkToolErrors } from "./error_placeholders.ts";

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
