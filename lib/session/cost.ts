/**
 * What a session's requests cost, from the model catalog's prices (USD per million tokens). The
 * tokens used since the last charge are charged at the prices of the model in use, so a session
 * that switched models pays each model's part at its own prices.
 */
import type { ConfigValues } from "../config/schema.ts";
import type { TurnOutcome } from "../loop/events.ts";
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

/** `[model_prices."MODEL"]`: USD per million tokens, as the config gives them. */
export type PriceTables = Record<string, { input: number; output: number; cached_input?: number }>;

/** Where prices come from besides the catalog. */
export interface PriceOptions {
  /** `[model_prices]`: they win over the catalog, for any provider. */
  prices?: PriceTables;
  /** A budget is set: a model on a local server then costs $0 instead of nothing known. */
  budget?: boolean;
}

/** Where prices come from under `values`: `[model_prices]`, local servers at $0 under a budget. */
export function priceOptionsOf(
  values: Pick<ConfigValues, "model_prices" | "max_budget_usd">,
): PriceOptions {
  return { prices: values.model_prices, budget: values.max_budget_usd !== undefined };
}

/**
 * The prices of `model` at a provider: `[model_prices]`'s, else the catalog's; undefined when
 * neither has an input and an output price (or the model runs on a local server, unless
 * `budget`: then $0).
 */
export function modelPrice(
  catalog: Catalog,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  model: string,
  opts: PriceOptions = {},
): ModelPrice | undefined {
  const own = configuredPrice(opts.prices, model);
  if (own) return own;
  // A model on a local server costs nothing, whatever a hosted copy of it is priced at.
  if (isLocalProvider(settings.id)) {
    return opts.budget ? { input: 0, output: 0, cacheRead: 0 } : undefined;
  }
  const cost = findModel(catalog, settings, model)?.cost;
  if (cost?.input === undefined || cost.output === undefined) return undefined;
  return { input: cost.input, output: cost.output, cacheRead: cost.cache_read ?? cost.input };
}

/** A provider kind that runs on the user's machine (Ollama, LM Studio, llama.cpp, vLLM). */
function isLocalProvider(id: string): boolean {
  return (LOCAL_PROVIDERS as readonly string[]).includes(id);
}

/** `[model_prices]`'s entry for `model` (its exact id, else case-insensitively). */
function configuredPrice(prices: PriceTables | undefined, model: string): ModelPrice | undefined {
  if (!prices) return undefined;
  const lower = model.toLowerCase();
  const key = model in prices ? model : Object.keys(prices).find((k) => k.toLowerCase() === lower);
  const p = key === undefined ? undefined : prices[key];
  return p && { input: p.input, output: p.output, cacheRead: p.cached_input ?? p.input };
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

  /** The turn's end when the cost so far has reached `limit` (`max_budget_usd`). */
  stopAt(limit: number | undefined): TurnOutcome | undefined {
    const spent = this.usd;
    if (limit === undefined || spent === undefined || spent < limit) return undefined;
    return { status: "budget_limit", limit, spent };
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
