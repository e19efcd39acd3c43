/** Configuration: `config.toml` layers, their origins, provider resolution and debug output. */
export { formatConfigDebug, isSecretKey } from "./debug.ts";
export type { ConfigContext, ConfigEntry, EffectiveConfig } from "./effective.ts";
export {
  configHome,
  findProjectRoot,
  type FlagKey,
  type FlagOverrides,
  loadConfig,
  type LoadConfigOptions,
} from "./load.ts";
export { type ConfigOverride, parseOverrideText } from "./_override.ts";
export { describeOrigin, type Origin } from "./origin.ts";
export { type ResolvedProvider, resolveProvider, type ResolveProviderOptions } from "./provider.ts";
export type {
  ApprovalPolicy,
  ConfigFile,
  ConfigValues,
  LocalProvider,
  McpServerEntry,
  ProviderEntry,
  ReasoningEffort,
  SandboxMode,
  SandboxWorkspaceWrite,
  ShellEnvironmentPolicy,
  TrustLevel,
} from "./schema.ts";
