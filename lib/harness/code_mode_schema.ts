/** `[code_mode]` in harness.toml: the schema only (lib/harness/code_mode.ts loads it). */
import * as z from "zod";
import { globProblem } from "./_glob.ts";
import { contextSchema, wireSettingsShape } from "./request_schema.ts";

const glob = z.string().superRefine((pattern, ctx) => {
  const problem = globProblem(pattern);
  if (problem) ctx.addIssue({ code: "custom", message: `bad pattern: ${problem}` });
});
const identifier = z.string().regex(/^[a-z][a-z0-9_]*$/, "use lowercase letters, digits and '_'");

/**
 * Codex's code mode: for the models `models` matches, on `wire_apis`, the session sends the
 * `code_mode = true` tools instead of the others, which the `exec` source reaches as nested
 * tools; `context` entries join the harness's; `request` goes over `[request.responses]` like a
 * model rule; `nested_results` gives the object a nested tool's call returns to the source
 * (key → result placeholder), where the tool's rendered text is not what the vendor returns.
 */
export const codeModeSchema = z.strictObject({
  models: z.array(glob).min(1),
  wire_apis: z.array(z.enum(["responses"])).default(["responses"]),
  namespaces: z.array(z.strictObject({ name: identifier, description: z.string().default("") }))
    .min(1),
  context: contextSchema,
  request: z.strictObject(wireSettingsShape).prefault({}),
  nested_results: z.record(z.string().min(1), z.record(identifier, identifier)).default({}),
});

/** A parsed `[code_mode]`. */
export type CodeModeSpec = z.infer<typeof codeModeSchema>;
