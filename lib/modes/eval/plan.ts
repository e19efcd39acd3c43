/**
 * What an eval will run: the harnesses (a list, `all` or `fitting`), the models with their
 * providers and prices, and the trials of every task × harness × model × repetition.
 */
import { configHome, loadConfig } from "../../config/load.ts";
import { resolveProvider } from "../../config/provider.ts";
import { UsageError } from "../../errors.ts";
import type { WireApi } from "../../providers/types.ts";
import { catalogPricer, type ModelPrice } from "../../session/cost.ts";
import { installedHarnesses } from "../../session/harness_inspect.ts";
import { nearestNames } from "../../nearest.ts";
import { trialName, type TrialPlan } from "./job_layout.ts";
import type { EvalTask } from "./types.ts";

/** A model as the runs will ask for it. */
export interface PlannedModel {
  /** As given (`-m`), or the configured one. */
  spec: string;
  provider: string;
  wireApi: WireApi;
  price?: ModelPrice;
}

/** How config is read for planning: as `exec` would read it in `cwd`. */
export interface PlanConfig {
  cwd: string;
  env: Record<string, string>;
  /** `-c key=value` texts. */
  overrides: string[];
  profile?: string;
  oss?: boolean;
  localProvider?: string;
}

/** The models of `--model a,b` (none: the configured one), each with its provider and price. */
export async function planModels(
  specs: string[],
  config: PlanConfig,
): Promise<PlannedModel[]> {
  const priceOf = await catalogPricer();
  const out: PlannedModel[] = [];
  for (const spec of specs.length ? specs : [undefined]) {
    const effective = await loadConfig({
      cwd: config.cwd,
      env: config.env,
      flags: {
        ...(spec ? { model: spec } : {}),
        ...(config.oss ? { oss: true } : {}),
        ...(config.localProvider ? { local_provider: config.localProvider } : {}),
      },
      overrides: config.overrides,
      profile: config.profile,
    });
    const { settings, model } = resolveProvider(effective, config.env);
    out.push({
      spec: spec ?? model,
      provider: settings.id,
      wireApi: settings.wireApi,
      price: priceOf(settings, model),
    });
  }
  return out;
}

/**
 * The harness × model pairs to run: `all` pairs every harness with every model it can talk to,
 * `fitting` the same (a harness fits a model when its wire APIs include the provider's); a list
 * names harnesses, each of which must fit every model.
 */
export async function planPairs(
  harnessArg: string | undefined,
  models: PlannedModel[],
  config: PlanConfig,
): Promise<Array<{ harness: string; model: PlannedModel }>> {
  const installed = await installedHarnesses(configHome(config.env, config.cwd));
  const known = installed.ids;
  const wanted = !harnessArg || harnessArg === "all" || harnessArg === "fitting"
    ? known
    : splitList(harnessArg);
  for (const id of wanted) {
    if (!known.includes(id)) {
      const near = nearestNames(id, known);
      throw new UsageError(`Unknown harness "${id}" in --harness`, {
        hint: near.length
          ? `Did you mean ${near.join(", ")}? Harnesses: ${known.join(", ")}`
          : `Harnesses: ${known.join(", ")}, or all, or fitting`,
      });
    }
  }
  const pairs = [];
  for (const id of wanted) {
    const wires = await installed.wireApisOf(id);
    for (const model of models) {
      if (wires.includes(model.wireApi)) pairs.push({ harness: id, model });
      else if (wanted !== known) {
        throw new UsageError(
          `Harness "${id}" cannot talk to ${model.spec}: provider "${model.provider}" speaks the ` +
            `${model.wireApi} wire API and ${id} speaks ${wires.join(", ")}`,
          { hint: "Leave it out, or pass --harness fitting to take only the harnesses that fit" },
        );
      }
    }
  }
  if (pairs.length === 0) {
    throw new UsageError("No harness fits the models given", {
      hint: "Pass --harness with harnesses whose wire APIs the provider serves",
    });
  }
  return pairs;
}

/** Every trial: for each repetition, each task × pair (so early results cover every pair). */
export function planTrials(
  tasks: EvalTask[],
  pairs: Array<{ harness: string; model: string }>,
  repeat: number,
): TrialPlan[] {
  const trials: TrialPlan[] = [];
  for (let attempt = 1; attempt <= repeat; attempt++) {
    for (const task of tasks) {
      for (const { harness, model } of pairs) {
        trials.push({ name: trialName(task.name), task, harness, model, attempt });
      }
    }
  }
  return trials;
}

/** Tokens a run is assumed to use when estimating cost before any run has finished. */
const ASSUMED_RUN_TOKENS = { input: 200_000, output: 10_000 };

/** An estimate of the cost of `trials` in USD; undefined when a model has no prices. */
export function estimateCost(trials: TrialPlan[], models: PlannedModel[]): number | undefined {
  let usd = 0;
  for (const trial of trials) {
    const price = models.find((m) => m.spec === trial.model)?.price;
    if (!price) return undefined;
    usd += (ASSUMED_RUN_TOKENS.input * price.input + ASSUMED_RUN_TOKENS.output * price.output) /
      1_000_000;
  }
  return usd;
}

/** `a,b , c` as a list. */
export function splitList(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter(Boolean);
}
