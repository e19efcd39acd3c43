/** Configuration: `config.toml` layers, their origins, provider resolution and debug output. */
export type { EffectiveConfig } from "./effective.ts";
export { type FlagOverrides, loadConfig } from "./load.ts";
export { type ConfigOverride, parseOverrideText } from "./_override.ts";
