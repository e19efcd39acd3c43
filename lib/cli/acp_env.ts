/**
 * What `interpreter acp` reads from its environment: the harness, model and reasoning effort a
 * launcher that cannot pass flags (an ACP registry entry, Harbor's `acp` agent) sets as
 * `INTERPRETER_HARNESS`, `INTERPRETER_MODEL` and `INTERPRETER_EFFORT`. A flag (`--harness`, `-m`,
 * `-c model_reasoning_effort=...`) wins over its variable; an empty variable counts as unset.
 * Loaded only when `acp` runs.
 */
import { REASONING_EFFORTS } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { ReasoningEffort, SessionConfig } from "../session/types.ts";

/** The variables, by the setting each sets. */
const ACP_ENV = {
  harness: "INTERPRETER_HARNESS",
  model: "INTERPRETER_MODEL",
  effort: "INTERPRETER_EFFORT",
} as const;

/** `config` with the settings its flags left open taken from `env`. */
export function withAcpEnv(
  config: SessionConfig,
  env: Record<string, string | undefined>,
): SessionConfig {
  const read = (name: string) => env[name]?.trim() || undefined;
  const out: SessionConfig = { ...config, labels: { ...config.labels } };
  const harness = read(ACP_ENV.harness);
  if (harness !== undefined && config.harness === undefined) {
    out.harness = harness;
    out.labels!.harness = ACP_ENV.harness;
  }
  const model = read(ACP_ENV.model);
  if (model !== undefined && config.model === undefined) {
    out.model = model;
    out.labels!.model = ACP_ENV.model;
  }
  const effort = read(ACP_ENV.effort);
  const effortByFlag = config.reasoningEffort !== undefined ||
    (config.overrides ?? []).some((o) => o.keyPath.join(".") === "model_reasoning_effort");
  if (effort !== undefined && !effortByFlag) {
    out.reasoningEffort = effortOf(effort);
    out.labels!.reasoningEffort = ACP_ENV.effort;
  }
  if (Object.keys(out.labels!).length === 0) delete out.labels;
  return out;
}

function effortOf(text: string): ReasoningEffort {
  const found = REASONING_EFFORTS.find((e) => e === text.toLowerCase());
  if (found) return found;
  throw new UsageError(`${ACP_ENV.effort}="${text}" is not a reasoning effort`, {
    hint: `Set it to one of ${REASONING_EFFORTS.join(", ")}, or unset it to keep the config's`,
  });
}
