import type { z } from "zod";

/** What a capability may use: the seams tests replace with real temp dirs and processes. */
export interface ToolContext {
  /** Absolute working directory; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** Environment for spawned commands. */
  env: Record<string, string>;
  /** Session-scoped state shared between calls (plans, read-file records, background jobs). */
  state: Map<string, unknown>;
}

/**
 * A tool capability, written once and shared by every harness. `run` returns structured data;
 * the harness renders it as model text. Throw `ToolError` for failures the model can correct.
 */
export interface Capability<I = unknown, O = unknown> {
  id: string;
  input: z.ZodType<I>;
  mutates: boolean;
  run(input: I, ctx: ToolContext): Promise<O>;
}

/** Declares a capability with its types inferred from the zod input schema. */
export function defineCapability<S extends z.ZodType, O>(
  cap: {
    id: string;
    input: S;
    mutates: boolean;
    run(input: z.infer<S>, ctx: ToolContext): Promise<O>;
  },
): Capability<z.infer<S>, O> {
  // S's output type is z.infer<S>, which TypeScript cannot see through the generic bound.
  return cap as unknown as Capability<z.infer<S>, O>;
}
