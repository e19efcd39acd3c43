/**
 * What a session's requests cost, from the model catalog's prices (USD per million tokens). The
 * tokens used since the last charge are charged at the prices of the model in use, so a session
 * that switched models pays each model's part at its own prices.
 */
import { addUsage, emptyUsage, type Usage } from "../model/message.ts";
import { type Catalog, findModel, loadCatalog } from "../providers/catalog.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { LOCAL_PROVIDERS } from "../config/schema.ts";

/** A model's prices in USD per million tokens; cached input at `cacheRead`. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
}

/** The catalog's prices of `model` at a provider; undefined when it has no input and output price. */
export function modelPrice(
  catalog: Catalog,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  model: string,
): ModelPrice | undefined {
  // A model on a local server costs nothing, whatever a hosted copy of it is priced at.
  if ((LOCAL_PROVIDERS as readonly string[]).includes(settings.id)) return undefined;
  const cost = findModel(catalog, settings, model)?.cost;
  if (cost?.input === undefined || cost.output === undefined) return undefined;
  return { input: cost.input, output: cost.output, cacheRead: cost.cache_read ?? cost.input };
}

/** Prices a route (provider and model) from the bundled catalog, read once. */
export type RoutePricer = (
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  model: string,
) => ModelPrice | undefined;

/** The catalog's pricer, as eval estimates a job's cost before any run. */
export async function catalogPricer(): Promise<RoutePricer> {
  const catalog = await loadCatalog();
  return (settings, model) => modelPrice(catalog, settings, model);
}

/** What `usage` costs at `price`, in USD. `usage.inputTokens` counts the cached ones too. */
export function usageCost(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  return (fresh * price.input + cached * price.cacheRead + usage.outputTokens * price.output) /
    1_000_000;
}

/** The running cost of a session: charge it with the session's usage totals as they grow. */
export class CostMeter {
  #charged: Usage = emptyUsage();
  #usd = 0;
  #unpriced = false;
  /** The model of the latest charge has prices. */
  #priced = false;

  /**
   * Charges what `total` (the session's usage so far) added since the last charge at `price`;
   * tokens charged without a price make the cost unknown from then on.
   */
  charge(total: Usage, price: ModelPrice | undefined): void {
    const added: Usage = {
      inputTokens: total.inputTokens - this.#charged.inputTokens,
      outputTokens: total.outputTokens - this.#charged.outputTokens,
      cachedInputTokens: total.cachedInputTokens - this.#charged.cachedInputTokens,
      reasoningTokens: total.reasoningTokens - this.#charged.reasoningTokens,
    };
    this.#priced = price !== undefined;
    if (added.inputTokens + added.outputTokens <= 0) return;
    addUsage(this.#charged, added);
    if (price) this.#usd += usageCost(added, price);
    else this.#unpriced = true;
  }

  /**
   * The cost so far in USD; undefined when some tokens were used at a model without prices, or
   * none were used yet and the model in use has none.
   */
  get usd(): number | undefined {
    const used = this.#charged.inputTokens + this.#charged.outputTokens > 0;
    return this.#unpriced || (!used && !this.#priced) ? undefined : this.#usd;
  }
}
