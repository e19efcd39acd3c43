/**
 * Start-up checks of the local providers (Ollama, LM Studio), run beside the rest of start-up:
 * is the server up, is the model there and able to call tools, what context window applies.
 * Each check loads only when its provider is in use.
 */
import type { EffectiveConfig } from "../../config/effective.ts";
import type { UserError } from "../../errors.ts";
import type { ProviderSettings } from "../types.ts";

/** The context an agent loop needs, in tokens. */
export { AGENT_CONTEXT_TOKENS } from "../ollama_api.ts";

/** What a check needs besides the provider. */
export interface LocalCheckOptions {
  model: string;
  /** False when the model came from no flag or config: the check picks one from the server. */
  chosen: boolean;
  /** `model_context_window`, when set. */
  contextWindow?: number;
}

/** What a check found. */
export interface LocalSetup {
  /** The model to use: the chosen one, or the one picked from the server. */
  model: string;
  /** The session's context window, when the server decides it. */
  contextWindow?: number;
  /** Start-up notes for stderr, one sentence each. */
  notes: string[];
  /** Thrown once the harness is known, if it calls tools: the model cannot. */
  toolsProblem?: UserError;
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
  return undefined;
}

/**
 * Whether the user chose the model: `-m`, or a `model` in config for this provider. `--oss`
 * alone fills in the built-in default, which does not count.
 */
export function modelChosen(config: EffectiveConfig): boolean {
  const origin = config.origin("model");
  if (origin === undefined) return false;
  return !(origin.kind === "flag" && ["--oss", "--local-provider"].includes(origin.name));
}

/** A token count for messages: 65,536. */
export function tokenCount(tokens: number): string {
  return tokens.toLocaleString("en-US");
}
