/** What `/model` and `/harness` offer: providers with their models, and every harness. */
import { storedKey } from "../config/auth.ts";
import { resolveProvider } from "../config/provider.ts";
import { listHarnessIds, loadHarness, loadHarnessCandidates } from "../harness/load.ts";
import { chooseHarness, FALLBACK_HARNESS, type HarnessChoiceInput } from "../harness/select.ts";
import { BUILTIN_PROVIDERS, builtinProvider } from "../providers/builtin.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { type AgentSession, BUILTIN_HARNESSES } from "./agent_session.ts";
import { type Catalog, type CatalogModel, catalogProvider } from "../providers/catalog.ts";
import type { ModelChoice, ProviderChoice } from "./types.ts";

export type { ModelChoice, ProviderChoice } from "./types.ts";

/** The built-in and user harness folders of a session. */
export function harnessDirs(agent: AgentSession) {
  return { builtinDir: BUILTIN_HARNESSES, userDir: `${agent.config.home}/harnesses` };
}

/** A model a running local server has now (Ollama, LM Studio, llama.cpp, vLLM). */
export interface LiveModel {
  id: string;
  name?: string;
  context?: number;
}

/**
 * Reads the models a local server has loaded or installed. Answers undefined for a provider it
 * does not know, and rejects when the server cannot be reached.
 */
export type LiveModelLister = (
  settings: ProviderSettings,
  signal: AbortSignal,
) => Promise<LiveModel[] | undefined>;

/**
 * The live lists `/model` shows in place of the catalog's: a local provider's module adds its
 * lister here (Ollama's `/api/tags`, LM Studio's `/api/v1/models`, llama.cpp's and vLLM's
 * `/v1/models`), and a custom OpenAI-compatible provider's server its `/models`.
 */
const LIVE_MODEL_LISTERS: readonly LiveModelLister[] = [
  ollamaModels,
  lmStudioModels,
  llamaCppModels,
  vllmModels,
  customModels,
];

/** The models a custom OpenAI-compatible provider's server lists (`GET <base_url>/models`). */
async function customModels(settings: ProviderSettings, signal: AbortSignal) {
  const { servedModels } = await import("../providers/served_models.ts");
  return await servedModels(settings, signal);
}

/** The models the llama.cpp server of the built-in `llamacpp` provider serves (`/v1/models`). */
async function llamaCppModels(settings: ProviderSettings, signal: AbortSignal) {
  const { servedLlamaCppModels } = await import("../providers/local/llamacpp.ts");
  return await servedLlamaCppModels(settings, signal);
}

/** The models the vLLM server of the built-in `vllm` provider serves (`/v1/models`). */
async function vllmModels(settings: ProviderSettings, signal: AbortSignal) {
  const { servedVllmModels } = await import("../providers/local/vllm.ts");
  return await servedVllmModels(settings, signal);
}

/** The models loaded in the LM Studio server of the built-in `lmstudio` provider. */
async function lmStudioModels(settings: ProviderSettings, signal: AbortSignal) {
  const { loadedLmStudioModels } = await import("../providers/local/lmstudio.ts");
  return await loadedLmStudioModels(settings, signal);
}

/** The models installed in the Ollama server of the built-in `ollama` provider. */
async function ollamaModels(settings: ProviderSettings, signal: AbortSignal) {
  if (settings.id !== "ollama") return undefined;
  const { installedModels, ollamaRoot } = await import("../providers/ollama_api.ts");
  const names = await installedModels(ollamaRoot(settings.baseUrl), signal);
  return names.map((id) => ({ id }));
}

/** How long `/model` waits for a local server's list. */
const LIVE_LIST_TIMEOUT_MS = 2000;

/** Configured and built-in providers, each with a model to use, its key state and its models. */
export async function providerChoices(
  agent: AgentSession,
  opts: {
    env: Record<string, string>;
    current: { provider: string; model: string };
    catalog: Catalog;
  },
): Promise<ProviderChoice[]> {
  const { env, current } = opts;
  const rows = new Map<string, { name: string; model: string; envKey?: string }>();
  for (const p of BUILTIN_PROVIDERS) {
    rows.set(p.id, { name: p.name, model: p.defaultModel, envKey: p.envKey });
  }
  for (const [id, entry] of Object.entries(agent.config.values.model_providers)) {
    const base = rows.get(id);
    rows.set(id, {
      name: entry.name ?? base?.name ?? id,
      model: base?.model ?? "",
      envKey: entry.env_key ?? base?.envKey,
    });
  }
  return await Promise.all([...rows].map(async ([provider, row]) => {
    const model = provider === current.provider ? current.model : row.model;
    const inUse = (id: string) => provider === current.provider && id === model;
    const settings = usableSettings(agent, env, provider);
    const listed = settings ? await liveModels(settings) : undefined;
    const known = settings ? catalogProvider(opts.catalog, settings)?.models ?? [] : [];
    const models: ModelChoice[] = listed && !listed.error
      ? listed.models.map((m) => ({
        ...catalogFacts(known, m.id),
        ...m,
        name: m.name ?? m.id,
        current: inUse(m.id),
      }))
      : known.map((m) => ({ ...m, current: inUse(m.id) }));
    return {
      provider,
      name: row.name,
      model,
      current: provider === current.provider,
      key: !row.envKey || Boolean(env[row.envKey]?.trim()) ||
        storedKey(agent.config.home, provider) !== undefined,
      ...(row.envKey ? { envKey: row.envKey } : {}),
      models,
      ...(listed ? { live: listed.error ? { error: listed.error } : {} } : {}),
    };
  }));
}

/** The settings of a provider that could be switched to now; undefined without its key. */
function usableSettings(
  agent: AgentSession,
  env: Record<string, string>,
  provider: string,
): ProviderSettings | undefined {
  const values = { ...agent.config.values, model_provider: provider, model: "-" };
  try {
    return resolveProvider({ ...agent.config, values }, env).settings;
  } catch {
    return undefined;
  }
}

/** What the catalog says of a model a server lists, by id. */
function catalogFacts(known: CatalogModel[], id: string): Partial<CatalogModel> {
  const found = known.find((m) => m.id === id);
  return found ? { context: found.context, output: found.output, reasoning: found.reasoning } : {};
}

async function liveModels(
  settings: ProviderSettings,
): Promise<{ models: LiveModel[]; error?: string } | undefined> {
  const signal = AbortSignal.timeout(LIVE_LIST_TIMEOUT_MS);
  for (const lister of LIVE_MODEL_LISTERS) {
    try {
      const models = await lister(settings, signal);
      if (models) return { models };
    } catch (error) {
      return { models: [], error: (error as Error).message };
    }
  }
  return undefined;
}

/** The harness, model and provider settings in use. */
export interface RouteInUse {
  harness: string;
  model: string;
  provider: Pick<ProviderSettings, "id" | "name" | "baseUrl" | "wireApi">;
}

/** Every harness with its label, the automatic choice for this model and the one in use marked. */
export async function harnessChoices(
  agent: AgentSession,
  current: RouteInUse,
): Promise<Array<{ id: string; label: string; automatic: boolean; current: boolean }>> {
  const dirs = harnessDirs(agent);
  const ids = await listHarnessIds(dirs);
  const { chooseHarnessWhy } = await import("../harness/routes.ts");
  const automatic = chooseHarnessWhy({
    ...choiceInput(current),
    routes: agent.config.values.harness_routes,
    candidates: await loadHarnessCandidates(dirs),
  }).id;
  const out = [];
  for (const id of ids) {
    const label = await loadHarness(id, dirs).then((h) => h.label, () => "(does not load)");
    out.push({ id, label, automatic: id === automatic, current: id === current.harness });
  }
  return out;
}

/**
 * The harnesses to try when the model keeps repeating a failing call: those whose `[match]`
 * claims this model (its id, or its catalog family) or provider, then the fallback harness,
 * leaving out the one in use and any that cannot run over this wire.
 */
export async function fittingHarnesses(
  agent: AgentSession,
  current: RouteInUse,
  family?: string,
): Promise<string[]> {
  const dirs = harnessDirs(agent);
  const input = choiceInput(current);
  // chooseHarness answers the fallback when nothing matches, so that one is added last.
  const fits = (await loadHarnessCandidates(dirs)).filter((c) =>
    c.id !== FALLBACK_HARNESS &&
    [current.model, family].some((model) =>
      model && chooseHarness({ ...input, model, candidates: [c] }) === c.id
    )
  ).map((c) => c.id);
  const out: string[] = [];
  for (const id of new Set([...fits, FALLBACK_HARNESS])) {
    if (id === current.harness) continue;
    const harness = await loadHarness(id, dirs).catch(() => undefined);
    if (harness?.wireApis.includes(current.provider.wireApi)) out.push(id);
  }
  return out;
}

/** What the harness choice reads of the route in use: the provider's, not the start-up one's. */
function choiceInput(current: RouteInUse): Omit<HarnessChoiceInput, "candidates"> {
  const { provider } = current;
  return {
    configured: "",
    model: current.model,
    providerId: provider.id,
    providerName: provider.name,
    baseUrl: provider.baseUrl,
    wireApi: provider.wireApi,
  };
}

/** Whether `id` names a configured or built-in provider (for `/model PROVIDER/NAME`). */
export function isProvider(agent: AgentSession, id: string): boolean {
  return id in agent.config.values.model_providers || builtinProvider(id) !== undefined;
}
