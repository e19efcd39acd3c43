/**
 * `max_budget_usd`: the session's spending limit. Loaded only when one is set: the model must
 * have prices (`[model_prices]` or the catalog; a local server's is $0). The session checks its
 * cost against it before each model request (`CostMeter.stopAt()`).
 */
import type { ConfigValues } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import type { Catalog } from "../providers/catalog.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { modelPrice, priceOptionsOf } from "./cost.ts";

/**
 * Refuses a model the budget cannot be kept for: a hosted model with no price in the catalog or
 * `[model_prices]`. Nothing to check without a budget.
 */
export function requirePrice(
  catalog: Catalog,
  values: ConfigValues,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  model: string,
): void {
  const budget = values.max_budget_usd;
  if (budget === undefined) return;
  if (modelPrice(catalog, settings, model, priceOptionsOf(values))) return;
  throw new UserError(
    `Cannot keep to max_budget_usd = ${budget}: ${model} (provider ${settings.id}) has no ` +
      "price in the model catalog",
    {
      hint: `Give its prices in USD per million tokens in config.toml: [model_prices."${model}"] ` +
        "with input = ... and output = ... (cached_input optional), or start without a budget",
    },
  );
}

/**
 * Raises a limit for the rest of the session (the REPL's "go on with a higher limit"): the next
 * turn and the next request read it.
 */
export function raiseLimit(
  values: ConfigValues,
  key: "max_turn_steps" | "max_budget_usd",
  to: number,
): void {
  values[key] = to;
}
