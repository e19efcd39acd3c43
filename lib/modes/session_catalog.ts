/** What `/model` and `/harness` offer: providers with their models, and every harness. */
import { listHarnessIds, loadHarness, loadHarnessCandidates } from "../harness/load.ts";
import { chooseHarness } from "../harness/select.ts";
import { BUILTIN_PROVIDERS, builtinProvider } from "../providers/builtin.ts";
import type { WireApi } from "../providers/types.ts";
import { type AgentSession, BUILTIN_HARNESSES } from "./agent_session.ts";

/** The built-in and user harness folders of a session. */
export function harnessDirs(agent: AgentSession) {
  return { builtinDir: BUILTIN_HARNESSES, userDir: `${agent.config.home}/harnesses` };
}

/** Configured and built-in providers, each with a model to use and whether its key is set. */
export function providerChoices(
  agent: AgentSession,
  env: Record<string, string>,
  current: { provider: string; model: string },
): Array<{ provider: string; name: string; model: string; current: boolean; key: boolean }> {
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
  return [...rows].map(([provider, row]) => ({
    provider,
    name: row.name,
    model: provider === current.provider ? current.model : row.model,
    current: provider === current.provider,
    key: !row.envKey || Boolean(env[row.envKey]),
  }));
}

/** Every harness with its label, the automatic choice for this model and the one in use marked. */
export async function harnessChoices(
  agent: AgentSession,
  current: { harness: string; model: string; providerId: string; wireApi: WireApi },
): Promise<Array<{ id: string; label: string; automatic: boolean; current: boolean }>> {
  const dirs = harnessDirs(agent);
  const ids = await listHarnessIds(dirs);
  const automatic = chooseHarness({
    configured: "",
    model: current.model,
    providerId: current.providerId,
    providerName: agent.settings.name,
    baseUrl: agent.settings.baseUrl,
    wireApi: current.wireApi,
    candidates: await loadHarnessCandidates(dirs),
  });
  const out = [];
  for (const id of ids) {
    const label = await loadHarness(id, dirs).then((h) => h.label, () => "(does not load)");
    out.push({ id, label, automatic: id === automatic, current: id === current.harness });
  }
  return out;
}

/** Whether `id` names a configured or built-in provider (for `/model PROVIDER/NAME`). */
export function isProvider(agent: AgentSession, id: string): boolean {
  return id in agent.config.values.model_providers || builtinProvider(id) !== undefined;
}
