import * as z from "zod";
import type { Capability } from "../tools/capability.ts";

/** One top-level field of a capability's input schema. */
export interface CapabilityField {
  schema: z.ZodType;
  required: boolean;
}

/** The top-level fields of a capability's zod input, or undefined when it is not an object. */
export function capabilityFields(cap: Capability): Map<string, CapabilityField> | undefined {
  if (!(cap.input instanceof z.ZodObject)) return undefined;
  const fields = new Map<string, CapabilityField>();
  for (const [name, schema] of Object.entries(cap.input.shape as Record<string, z.ZodType>)) {
    fields.set(name, { schema, required: !schema.safeParse(undefined).success });
  }
  return fields;
}
