/**
 * `interpreter doctor`'s checks of what a session talks to: each configured provider (its key
 * found, named by its variable and never shown, and its models list answering a cheap GET with
 * a short timeout), and each MCP server of the config started and asked for its tools. A
 * project's servers the user has not trusted are listed, never started.
 */
import { resolveProvider } from "../config/provider.ts";
import type { EffectiveConfig } from "../config/mod.ts";
import { MissingKeyError, storedKey } from "../config/auth.ts";
import { UserError } from "../errors.ts";
import { McpServers } from "../mcp/mcp_servers.ts";
import { BUILTIN_PROVIDERS } from "../providers/builtin.ts";
import { checkKey } from "../providers/key_check.ts";
import type { DoctorCheck } from "./doctor_checks.ts";
import { projectDefinitions } from "./trust.ts";

/** How long one provider or MCP server may take to answer. */
const REACH_TIMEOUT_MS = 5_000;

/**
 * The providers worth checking: the one in use, every `[model_providers]` entry, and each
 * built-in one whose key is set or stored.
 */
function configuredProviders(config: EffectiveConfig, env: Record<string, string>): string[] {
  const ids = new Set([
    config.values.model_provider,
    ...Object.keys(config.values.model_providers),
  ]);
  for (const p of BUILTIN_PROVIDERS) {
    if (p.envKey && (env[p.envKey]?.trim() || storedKey(config.home, p.id))) ids.add(p.id);
  }
  return [...ids];
}

/** One provider: its key, then its models list. Only the one in use is needed. */
async function providerCheck(
  config: EffectiveConfig,
  env: Record<string, string>,
  id: string,
): Promise<DoctorCheck> {
  const inUse = id === config.values.model_provider;
  const name = `provider ${id}${inUse ? " (in use)" : ""}`;
  const values = { ...config.values, model_provider: id, model: config.values.model ?? "-" };
  let settings;
  try {
    settings = resolveProvider({ ...config, values }, env).settings;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const key = error instanceof MissingKeyError ? error.settings.envKey : undefined;
    return {
      name,
      ok: false,
      detail: key ? `no key: ${key} is not set and none is stored` : error.message,
      fix: key ? `export ${key}=... (or run interpreter and enter it when asked)` : error.hint,
      needed: inUse,
    };
  }
  const keyName = settings.envKey ? `key from ${settings.envKey}` : "no key needed";
  const checked = await checkKey(settings, settings.apiKey ?? "", { timeoutMs: REACH_TIMEOUT_MS });
  if (checked.status === "accepted") {
    return { name, ok: true, detail: `${settings.baseUrl} answers; ${keyName}` };
  }
  const refused = checked.status === "refused";
  return {
    name,
    ok: false,
    detail: `${settings.baseUrl}: ${refused ? "the key was refused" : "no answer"}: ` +
      checked.detail,
    fix: refused
      ? `Check the key in ${settings.envKey ?? "the provider's settings"}`
      : `Check base_url of [model_providers.${id}] and that the server runs`,
    needed: inUse,
  };
}

/** Every configured provider, checked at once. */
export async function providerChecks(
  config: EffectiveConfig,
  env: Record<string, string>,
): Promise<DoctorCheck[]> {
  const ids = configuredProviders(config, env);
  return await Promise.all(ids.map((id) => providerCheck(config, env, id)));
}

/** Every enabled MCP server of the config: started and listed, or named as untrusted. */
export async function mcpChecks(
  config: EffectiveConfig,
  env: Record<string, string>,
): Promise<DoctorCheck[]> {
  const servers = config.values.mcp_servers ?? {};
  if (Object.values(servers).every((s) => s.enabled === false)) return [];
  const { untrusted } = await projectDefinitions(config, { env });
  const held = new Set(untrusted.filter((d) => d.kind === "mcp_server").map((d) => d.name));
  const notes: string[] = [];
  await using hub = new McpServers(servers, {
    home: config.home,
    env,
    cwd: config.projectRoot,
    warn: (message) => notes.push(message),
    untrusted: held,
  });
  const signal = AbortSignal.timeout(REACH_TIMEOUT_MS * 2);
  await Promise.all(hub.sources.map((s) => s.tools(signal).catch(() => [])));
  return hub.servers().map((view): DoctorCheck => {
    const name = `mcp ${view.id}`;
    if (held.has(view.id)) {
      return {
        name,
        ok: true,
        detail: `not started: a project server you have not trusted (${view.target})`,
        fix: "interpreter trust, after reading what it runs",
      };
    }
    if (view.status === "ready") {
      return { name, ok: true, detail: `started; ${view.tools.length} tool(s)` };
    }
    const log = view.logFile ? `; log: ${view.logFile}` : "";
    return {
      name,
      ok: false,
      detail: `${view.status}: ${view.reason ?? (notes.join("; ") || "no reason given")}${log}`,
      fix: `Fix [mcp_servers.${view.id}] in the config, or set enabled = false there`,
    };
  });
}
