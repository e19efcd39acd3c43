/**
 * Result-template placeholders: which names a capability's result template may use (its sample
 * outputs' fields and the derived values that resolve on them), and the check of a tool's
 * templates against them.
 */

import { HarnessError } from "../errors.ts";
import { DERIVED } from "./_derived.ts";
import { SAMPLE_OUTPUTS } from "./_sample_outputs.ts";
import { renderResult } from "./call.ts";
import type { HarnessTool } from "./types.ts";

/** Derived placeholders of `_derived.ts`. */
const DERIVED_NAMES = Object.keys(DERIVED);

/** Every placeholder a result template of `capability` may use; undefined for an unknown id. */
export function placeholdersFor(capability: string): string[] | undefined {
  const samples = SAMPLE_OUTPUTS[capability];
  if (!samples) return undefined;
  const names = new Set<string>();
  for (const sample of samples as Record<string, unknown>[]) {
    for (const key of Object.keys(sample)) {
      for (const name of [key, snakeCase(key)]) {
        names.add(name).add(`if_${name}`).add(`unless_${name}`);
      }
    }
    for (const name of DERIVED_NAMES) if (resolves(name, sample)) names.add(name);
  }
  return [...names].sort();
}

/**
 * A capability's result placeholders by kind, for documentation: its output fields (snake_case;
 * the camelCase name, `if_<field>` and `unless_<field>` work too) and the derived values that
 * resolve on its outputs. Undefined for an unknown id.
 */
export function resultPlaceholderNames(
  capability: string,
): { fields: string[]; derived: string[] } | undefined {
  const samples = SAMPLE_OUTPUTS[capability];
  if (!samples) return undefined;
  const fields = new Set<string>();
  const derived = new Set<string>();
  for (const sample of samples as Record<string, unknown>[]) {
    for (const key of Object.keys(sample)) fields.add(snakeCase(key));
    // A field of the same name wins over a derived value (see outputLookup).
    for (const name of DERIVED_NAMES) {
      if (!fields.has(name) && resolves(name, sample)) derived.add(name);
    }
  }
  return { fields: [...fields].sort(), derived: [...derived].sort() };
}

/** The first sample output of `tool`'s capability rendered through its result template. */
export function sampleRender(tool: HarnessTool): string | undefined {
  const sample = SAMPLE_OUTPUTS[tool.capability]?.[0];
  return sample === undefined ? undefined : renderResult(tool, sample);
}

/**
 * Checks the result template and empty-output text of `tool` against its capability's
 * placeholders; `where(key)` names the spec file and key. An unknown one is a HarnessError.
 */
export function checkResultPlaceholders(tool: HarnessTool, where: (key: string) => string): void {
  const allowed = placeholdersFor(tool.capability);
  if (!allowed) return;
  const texts: [string, string | undefined][] = [
    ["result.template", tool.result.template],
    ["result.empty_output", tool.result.emptyOutput],
  ];
  for (const [key, text] of texts) {
    for (const m of (text ?? "").matchAll(/\{([a-z_][a-z0-9_]*)\}/g)) {
      if (allowed.includes(m[1])) continue;
      throw new HarnessError(
        `${where(key)}: tool "${tool.declaration.name}" uses unknown placeholder "{${
          m[1]
        }}" (capability ${tool.capability})`,
        { hint: `Valid placeholders: ${allowed.map((a) => `{${a}}`).join(" ")}` },
      );
    }
  }
}

function resolves(name: string, sample: Record<string, unknown>): boolean {
  const probe = `{${name}}`;
  const tool = { result: { template: probe } } as HarnessTool;
  return renderResult(tool, sample) !== probe;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
