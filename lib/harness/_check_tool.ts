import { HarnessError } from "../errors.ts";
import type { Capability } from "../tools/capability.ts";
import { CAPABILITIES } from "../tools/registry.ts";
import { capabilityFields } from "./_schema_fields.ts";
import type { HarnessTool } from "./types.ts";

/** Says where a problem is: the spec file and the key inside it. */
export type Locate = (key: string) => string;

/**
 * Throws HarnessError unless the tool's wire arguments and the capability's input line up:
 * every declared wire argument is mapped (to a field or ""), every mapping names a declared
 * argument and an existing field, fixed values fit their fields, and every required field
 * is reachable from a wire argument or a fixed value.
 */
export function checkToolMapping(tool: HarnessTool, cap: Capability | undefined, at: Locate): void {
  if (!cap) {
    throw new HarnessError(`${at("capability")}: unknown capability "${tool.capability}"`, {
      hint: `Use one of: ${CAPABILITIES.map((c) => c.id).join(", ")}`,
    });
  }
  const fields = capabilityFields(cap);
  if (!fields) throw new TypeError(`Capability "${cap.id}" input is not a zod object`);
  const declared = Object.keys(declaredProperties(tool));
  const known = [...fields.keys()].join(", ");
  const reached = new Map<string, string>();
  for (const [wire, field] of Object.entries(tool.args)) {
    if (!declared.includes(wire)) {
      throw new HarnessError(
        `${at(`args.${wire}`)}: "${wire}" is not a parameter of tool "${tool.declaration.name}"`,
        { hint: `Map only declared parameters: ${declared.join(", ") || "(none)"}` },
      );
    }
    if (field === "") continue;
    if (!fields.has(field)) {
      throw new HarnessError(
        `${at(`args.${wire}`)}: "${field}" is not an input field of capability "${cap.id}"`,
        { hint: `Use one of: ${known}, or "" to accept and ignore the argument` },
      );
    }
    claim(reached, field, `args.${wire}`, at);
  }
  for (const wire of declared) {
    if (!Object.hasOwn(tool.args, wire)) {
      throw new HarnessError(
        `${at("args")}: parameter "${wire}" of tool "${tool.declaration.name}" is not mapped`,
        { hint: `Add ${wire} = "<capability field>", or ${wire} = "" to accept and ignore it` },
      );
    }
  }
  for (const [field, value] of Object.entries(tool.fixedArgs)) {
    const spec = fields.get(field);
    if (!spec) {
      throw new HarnessError(
        `${at(`fixed_args.${field}`)}: "${field}" is not an input field of capability "${cap.id}"`,
        { hint: `Use one of: ${known}` },
      );
    }
    if (!spec.schema.safeParse(value).success) {
      throw new HarnessError(
        `${at(`fixed_args.${field}`)}: value ${JSON.stringify(value)} is not valid for "${field}"`,
        { hint: `Check the type of "${field}" in capability "${cap.id}"` },
      );
    }
    claim(reached, field, `fixed_args.${field}`, at);
  }
  for (const [field, spec] of fields) {
    if (spec.required && !reached.has(field)) {
      throw new HarnessError(
        `${at("args")}: required field "${field}" of capability "${cap.id}" is not reachable`,
        { hint: `Map a wire argument to "${field}" or set it in fixed_args` },
      );
    }
  }
}

/** The tool declaration's top-level JSON-schema properties. */
export function declaredProperties(tool: HarnessTool): Record<string, unknown> {
  const props = tool.declaration.parameters.properties;
  return props && typeof props === "object" ? props as Record<string, unknown> : {};
}

function claim(reached: Map<string, string>, field: string, key: string, at: Locate): void {
  const earlier = reached.get(field);
  if (earlier !== undefined) {
    throw new HarnessError(`${at(key)}: field "${field}" is already set by ${earlier}`, {
      hint: "Map each capability field from one place only",
    });
  }
  reached.set(field, key);
}
