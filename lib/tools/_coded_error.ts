import { ToolError } from "../errors.ts";

/**
 * The name a harness's wire gives a capability input field, or a key nested inside that field's
 * value (`("edits", "old_string")` → `oldText` in pi); undefined when the harness has no such
 * parameter, so a hint can leave it out.
 */
export type WireNames = (field: string, nested?: string) => string | undefined;

/** The capability's own field names, used when no harness is involved. */
const FIELD_NAMES: WireNames = (field, nested) => nested ?? field;

/**
 * A ToolError a harness can word in its vendor's text. `code` names the case (the error table
 * in lib/harness/placeholders.ts lists each capability's codes and fields), `fields` fill that
 * text's `{placeholders}`. A harness without a text for the code gets our wording, `describe`,
 * given the harness's parameter names, so a hint never names a parameter the harness lacks.
 */
export class CodedToolError extends ToolError {
  readonly code: string;
  readonly fields: Record<string, unknown>;
  readonly describe: (names: WireNames) => { message: string; hint?: string };

  constructor(
    code: string,
    fields: Record<string, unknown>,
    describe: (names: WireNames) => { message: string; hint?: string },
  ) {
    const own = describe(FIELD_NAMES);
    super(own.message, own.hint);
    this.code = code;
    this.fields = fields;
    this.describe = describe;
  }
}
