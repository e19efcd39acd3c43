/**
 * Start-up checks of the local providers (Ollama, LM Studio, llama.cpp, vLLM), run beside the rest
 * of start-up:
 * is the server up, is the model there and able to call tools, what context window applies.
 * Each check loads only when its provider is in use.
 */
import type { ProviderSettings } from "../types.ts";
import type { LocalCheckOptions, LocalSetup } from "./check.ts";

export type { LocalSetup } from "./check.ts";

/** Where a config value came from, as `EffectiveConfig.origin()` says (only what is read here). */
export interface ValueOrigins {
  origin(keyPath: string): { kind: string; name?: string } | undefined;
}

/** Starts the check for a local provider; undefined for every other provider. */
export function checkLocalProvider(
  settings: ProviderSettings,
  opts: LocalCheckOptions,
): Promise<LocalSetup> | undefined {
  if (settings.id === "ollama") {
    return import("./ollama.ts").then((m) => m.prepareOllama(settings, opts));
  }
  if (settings.id === "lmstudio") {
    return import("./lmstudio.ts").then((m) => m.prepareLmStudio(settings, opts));
  }
  if (settings.id === "llamacpp") {
    return import("./llamacpp.ts").then((m) => m.prepareLlamaCpp(settings, opts));
  }
  if (settings.id === "vllm") {
    return import("./vllm.ts").then((m) => m.prepareVllm(settings, opts));
  }
  return undefined;
}

/**
 * Whether the user chose the model: `-m`, or a `model` in config for this provider. `--oss`
 * alone fills in the built-in default, which does not count.
 */
export function modelChosen(config: ValueOrigins): boolean {
  const origin = config.origin("model");
  if (origin === undefined) return false;
  return !(origin.kind === "flag" && ["--oss", "--local-provider"].includes(origin.name ?? ""));
}
