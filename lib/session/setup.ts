/**
 * From a `SessionConfig` to the effective config: its typed values become the loader's
 * dedicated-value layer (named in `debug config` by their labels), its overrides the `-c` layer.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessError } from "../errors.ts";
import { listHarnessIds, loadHarness } from "../harness/load.ts";
import { type ConfigOverride, type FlagOverrides, loadConfig } from "../config/mod.ts";
import type { EffectiveConfig } from "../config/mod.ts";
import { type ConfigValues, LOCAL_PROVIDERS, type LocalProvider } from "../config/schema.ts";
import type { RequestOptions } from "../loop/agent_loop.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { VERSION } from "../version.ts";
import type { SessionConfig } from "./types.ts";
import { WireMismatchError } from "./errors.ts";

/** The built-in harness folders (`agent_session.ts` exports the same path). */
const BUILTIN_HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** What the config loader gets from a session config: dedicated values and overrides. */
export interface ConfigInput {
  flags: FlagOverrides;
  overrides: ConfigOverride[];
}

/** Maps the typed values of `config` onto config keys, for the config loader. */
function configInput(config: SessionConfig): ConfigInput {
  const flags: FlagOverrides = { cwd: config.cwd };
  if (config.model) flags.model = config.model;
  if (config.provider) flags.model_provider = config.provider;
  if (config.sandbox) flags.sandbox_mode = config.sandbox;
  if (config.approval) flags.approval_policy = config.approval;
  if (config.harness !== undefined) flags.harness = config.harness;
  if (config.oss === true) flags.oss = true;
  else if (config.oss) flags.local_provider = config.oss;
  if (config.writableRoots?.length) flags.add_dirs = config.writableRoots;
  const labels = config.labels ?? {};
  const names: FlagOverrides["names"] = {};
  if (labels.model) names.model = labels.model;
  if (labels.provider) names.model_provider = labels.provider;
  if (labels.sandbox) names.sandbox_mode = labels.sandbox;
  if (labels.approval) names.approval_policy = labels.approval;
  if (labels.harness) names.harness = labels.harness;
  if (Object.keys(names).length > 0) flags.names = names;
  const overrides = [...config.overrides ?? []];
  if (config.reasoningEffort) {
    const origin = labels.reasoningEffort ?? "reasoning effort";
    overrides.push({ keyPath: ["model_reasoning_effort"], value: config.reasoningEffort, origin });
  }
  return { flags, overrides };
}

/**
 * The effective config a session opens with, or a command that opens none (`debug config`,
 * `debug harness`): the config files for `config.cwd`, its profile, overrides and typed values.
 */
export async function loadSessionConfig(
  config: SessionConfig,
  opts: { env: Record<string, string>; isHeldBack?: (file: string) => boolean },
): Promise<EffectiveConfig> {
  const { flags, overrides } = configInput(config);
  const loaded = await loadConfig({
    cwd: config.cwd,
    env: opts.env,
    flags,
    overrides,
    profile: config.profile,
    isHeldBack: opts.isHeldBack,
  });
  await checkHarnessName(loaded);
  return loaded;
}

/**
 * Fails on a harness the config or a flag names that no harness folder holds, with the ids
 * there are: a typo is a bad value like any other, told before what depends on it (a missing
 * key of the provider) is looked at.
 */
async function checkHarnessName(config: EffectiveConfig): Promise<void> {
  const id = config.values.harness;
  if (!id) return;
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  if ((await listHarnessIds(dirs)).includes(id)) return;
  await loadHarness(id, dirs);
}

/**
 * The local server `--oss` settles on, found (and, when several run, asked for on this terminal)
 * before a front end takes the terminal over; `true` when config names none or finding fails, so
 * that opening the session reports the problem as usual.
 */
export async function settleLocalProvider(
  config: SessionConfig,
  env: Record<string, string>,
): Promise<LocalProvider | true> {
  try {
    const id = (await loadSessionConfig(config, { env })).values.model_provider;
    return (LOCAL_PROVIDERS as readonly string[]).includes(id) ? id as LocalProvider : true;
  } catch {
    return true;
  }
}

/** The error for a harness that cannot run over the chosen wire API. */
export function wireMismatch(harness: string, wire: string, supported: string[]): HarnessError {
  return new WireMismatchError(harness, wire, supported);
}

/** The user's request settings over the harness's (config keys), and the session id. */
export async function requestOptions(
  values: ConfigValues,
  sessionId: string,
): Promise<RequestOptions> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sessionId));
  const sessionHash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  const out: RequestOptions = { sessionId, sessionHash, appVersion: VERSION };
  if (values.vendor_client_headers) out.vendorClientHeaders = true;
  if (values.model_thinking) out.thinking = values.model_thinking;
  if (values.model_reasoning_summary) out.reasoningSummary = values.model_reasoning_summary;
  if (values.model_verbosity) out.verbosity = values.model_verbosity;
  if (values.web_search) out.webSearch = values.web_search;
  if (values.model_max_output_tokens) out.maxOutputTokens = values.model_max_output_tokens;
  return out;
}

/** The wire API as the banner and `/status` show it: Ollama's native API is named as such. */
export function wireLabel(settings: Pick<ProviderSettings, "wireApi" | "nativeApi">): string {
  return settings.nativeApi === "ollama" ? "ollama /api/chat" : settings.wireApi;
}
