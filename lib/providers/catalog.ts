/**
 * The provider and model catalog (lib/providers/catalog.json, written by `deno task catalog` from
 * a models.dev snapshot): each provider's tool-calling models with their context window, output
 * limit, reasoning support and prices. A session looks its model up here for the window it
 * compacts at and the output limit no request may pass.
 */
import type { ProviderSettings } from "./types.ts";

/** When no window is configured; most current models have at least this much. */
const DEFAULT_CONTEXT_WINDOW = 128_000;
/** The share of the window at which a session compacts unless a limit is configured. */
const AUTO_COMPACT_SHARE = 0.85;

/** The token count at which the session compacts. */
export function compactLimit(window: number, configured: number | undefined): number {
  return configured ?? Math.floor(window * AUTO_COMPACT_SHARE);
}

/** One model of the catalog. Prices are USD per million tokens. */
export interface CatalogModel {
  id: string;
  name: string;
  family?: string;
  context?: number;
  output?: number;
  reasoning: boolean;
  tool_call: boolean;
  /** What the model reads (`text`, `image`, `pdf`, …); absent when the snapshot does not say. */
  input?: string[];
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
}

/** One provider of the catalog; `api` is its OpenAI-compatible base URL, when it has one. */
export interface CatalogProvider {
  id: string;
  name: string;
  api?: string;
  env: string[];
  models: CatalogModel[];
}

/** The data file. */
export interface Catalog {
  source: string;
  providers: CatalogProvider[];
}

let merged: Promise<Catalog> | undefined;

/** Reads the catalog, catalog_overlay.json's models merged over it, once. */
export function loadCatalog(): Promise<Catalog> {
  merged ??= Promise.all([
    import("./catalog.json", { with: { type: "json" } }),
    import("./catalog_overlay.json", { with: { type: "json" } }),
    import("./catalog_overlay.ts"),
  ]).then(([data, overlay, { mergeOverlay }]) =>
    mergeOverlay<CatalogModel, Catalog>(data.default as Catalog, overlay.default)
  );
  return merged;
}

/** Built-in providers the catalog (models.dev) lists under another id. */
const CATALOG_IDS: Record<string, string> = { gemini: "google" };

/** Where a session's provider is in the catalog: the same id, else the same API host. */
export function catalogProvider(
  catalog: Catalog,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
): CatalogProvider | undefined {
  const id = CATALOG_IDS[settings.id] ?? settings.id;
  const byId = catalog.providers.find((p) => p.id === id);
  if (byId) return byId;
  const host = hostOf(settings.baseUrl);
  return host ? catalog.providers.find((p) => p.api && hostOf(p.api) === host) : undefined;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The catalog entry of `model`: the provider's own, else the same id at any provider, else the
 * part after the last "/" (a router's `vendor/model`) at any provider.
 */
export function findModel(
  catalog: Catalog,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  model: string,
): CatalogModel | undefined {
  const id = model.toLowerCase();
  const same = (m: CatalogModel) => m.id.toLowerCase() === id;
  const own = catalogProvider(catalog, settings)?.models.find(same);
  if (own) return own;
  const anywhere = (wanted: string) => {
    for (const provider of catalog.providers) {
      const found = provider.models.find((m) => m.id.toLowerCase() === wanted);
      if (found) return found;
    }
    return undefined;
  };
  const tail = id.slice(id.lastIndexOf("/") + 1);
  return anywhere(id) ?? (tail !== id && tail ? anywhere(tail) : undefined);
}

/** The catalog providers (ids and names) that list `model` under its exact id. */
export function modelVendors(catalog: Catalog, model: string): string[] {
  const id = model.toLowerCase();
  return catalog.providers
    .filter((p) => p.models.some((m) => m.id.toLowerCase() === id))
    .flatMap((p) => [p.id, p.name]);
}

/** The window a session counts against, the output cap for its requests, and how it knows. */
export interface ModelLimits {
  contextWindow: number;
  /** The history size at which the session compacts. */
  compactAt: number;
  /** The catalog's family of the model, when it gives one. */
  family?: string;
  /** The catalog's output limit for a known model; no request asks for more. */
  maxOutput?: number;
  /** Set when the window is the default: the one-line note that says so. */
  guessNote?: string;
}

/**
 * The limits of `model` at a provider: `model_context_window` when set, else the catalog's
 * window, else the default and a note that says it is a guess; the catalog's output limit.
 */
export function modelLimits(
  catalog: Catalog,
  settings: Pick<ProviderSettings, "id" | "baseUrl">,
  opts: { model: string; configuredWindow?: number; configuredCompactAt?: number },
): ModelLimits {
  const known = findModel(catalog, settings, opts.model);
  const contextWindow = opts.configuredWindow ?? known?.context ?? DEFAULT_CONTEXT_WINDOW;
  const why = known ? "has no context window in the model catalog" : "is not in the model catalog";
  return {
    contextWindow,
    compactAt: compactLimit(contextWindow, opts.configuredCompactAt),
    ...(known?.family ? { family: known.family } : {}),
    ...(known?.output ? { maxOutput: known.output } : {}),
    ...(opts.configuredWindow ?? known?.context ? {} : {
      guessNote: `note: ${opts.model} ${why}, so its context window of ${contextWindow} tokens ` +
        "is a guess; set model_context_window to the real one",
    }),
  };
}
