import type * as z from "zod";
import type { ToolContext } from "./types.ts";

export type { ToolContext } from "./types.ts";

/**
 * A tool capability, written once and shared by every harness. `run` returns structured data;
 * the harness renders it as model text. Throw `ToolError` for failures the model can correct.
 */
export interface Capability<I = unknown, O = unknown> {
  id: string;
  input: z.ZodType<I>;
  mutates: boolean;
  /**
   * Other spellings the input accepts for a nested key (`old_string`: `oldText`, …), so a
   * harness can name it in its own words.
   */
  spellings?: Readonly<Record<string, readonly string[]>>;
  run(input: I, ctx: ToolContext): Promise<O>;
}

/** Declares a capability with its types inferred from the zod input schema. */
export function defineCapability<S extends z.ZodType, O>(
  cap: {
    id: string;
    input: S;
    mutates: boolean;
    spellings?: Readonly<Record<string, readonly string[]>>;
    run(input: z.infer<S>, ctx: ToolContext): Promise<O>;
  },
): Capability<z.infer<S>, O> {
  // S's output type is z.infer<S>, which TypeScript cannot see through the generic bound.
  return cap as unknown as Capability<z.infer<S>, O>;
}

/**
 * The input a capability runs with: the model's own request to leave the sandbox (`escalated`,
 * `sandbox_permissions`) removed, and `escalated: true` only where the approval path granted it.
 */
export function withGrant(input: unknown, unsandboxed: boolean): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const { escalated: _e, sandbox_permissions: _p, ...rest } = input as Record<string, unknown>;
  return unsandboxed ? { ...rest, escalated: true } : rest;
}
