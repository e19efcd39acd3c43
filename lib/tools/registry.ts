import type { Capability } from "./capability.ts";
import { applyPatch } from "./apply_patch.ts";
import { fsEdit } from "./fs_edit.ts";
import { fsGlob } from "./fs_glob.ts";
import { fsGrep } from "./fs_grep.ts";
import { fsRead } from "./fs_read.ts";
import { fsWrite } from "./fs_write.ts";
import { shellRun } from "./shell_run.ts";
import { updatePlan } from "./update_plan.ts";

/** Every capability a harness can map tools onto. */
export const CAPABILITIES: readonly Capability[] = Object.freeze([
  shellRun as Capability,
  applyPatch as Capability,
  updatePlan as Capability,
  fsRead as Capability,
  fsWrite as Capability,
  fsEdit as Capability,
  fsGlob as Capability,
  fsGrep as Capability,
]);

/** The capability with this id, or undefined. */
export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
