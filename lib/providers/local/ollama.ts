/**
 * Ollama before the first turn: the server answers, the model is installed and can call tools,
 * and the context window is chosen and said once. `--oss` without `-m` picks the first installed
 * model with tool support.
 */
import { UserError } from "../../errors.ts";
import { LocalServerError } from "../local_json.ts";
import {
  AGENT_CONTEXT_TOKENS,
  chooseContextWindow,
  installedModels,
  type OllamaModel,
  ollamaRoot,
  ollamaVersion,
  showModel,
  supportsTools,
} from "../ollama_api.ts";
import { pullHint, startHint, SUGGESTED_MODEL, toolsRefusal } from "../ollama_errors.ts";
import type { ProviderSettings } from "../types.ts";
import { type LocalCheckOptions, type LocalSetup, tokenCount } from "./check.ts";

/** The oldest Ollama that streams tool calls and separates thinking on `/api/chat`. */
const MIN_VERSION = [0, 9, 0];
const GIB = 1024 ** 3;

/** Checks the Ollama server and model; see the module comment. */
export async function prepareOllama(
  settings: ProviderSettings,
  opts: LocalCheckOptions,
): Promise<LocalSetup> {
  const root = ollamaRoot(settings.baseUrl);
  const shown = opts.chosen ? showModel(root, opts.model) : undefined;
  shown?.catch(() => {});
  const version = await ollamaVersion(root).catch((error) => {
    throw serverProblem(error, root);
  });
  const notes: string[] = [];
  if (olderThan(version, MIN_VERSION)) {
    notes.push(
      `Ollama ${version} is older than ${MIN_VERSION.join(".")}: update it for streamed tool ` +
        "calls and separate thinking",
    );
  }
  let model: OllamaModel | undefined;
  if (shown) {
    model = await shown.catch((error) => {
      throw serverProblem(error, root);
    });
    if (!model) throw await notInstalled(root, opts.model);
  } else {
    model = await pickModel(root);
    notes.push(
      `Using Ollama model "${model.name}", the first installed one with tool support ` +
        "(-m chooses another)",
    );
  }
  const setup: LocalSetup = {
    model: model.name,
    notes,
    ...(model.families ? { families: model.families } : {}),
    ...(model.parameters ? { parameters: model.parameters } : {}),
  };
  if (!supportsTools(model)) setup.toolsProblem = await noTools(root, model.name);
  if (settings.nativeApi === "ollama") {
    const choice = chooseContextWindow(model, opts.contextWindow);
    setup.contextWindow = choice.tokens;
    notes.push(contextNote(model, choice.tokens, opts.contextWindow));
  } else {
    notes.push(
      `Ollama over ${settings.baseUrl} cannot set the context window: the server's default ` +
        "(often 4,096 tokens) applies and longer prompts are cut. Remove wire_api from " +
        "[model_providers.ollama] to use Ollama's native API, or start the server with " +
        `OLLAMA_CONTEXT_LENGTH=${AGENT_CONTEXT_TOKENS}`,
    );
  }
  return setup;
}

/** The first installed model with tool support (`/api/tags` lists the newest first). */
async function pickModel(root: string): Promise<OllamaModel> {
  const names = await installedModels(root).catch((error) => {
    throw serverProblem(error, root);
  });
  if (names.length === 0) {
    throw new UserError(`No model is installed in Ollama at ${root}`, {
      hint: `Run "ollama pull ${SUGGESTED_MODEL}" (or another model with tool support), ` +
        "then try again",
    });
  }
  const models = await Promise.all(
    names.map((name) => showModel(root, name).catch(() => undefined)),
  );
  const model = models.find((m) => m !== undefined && supportsTools(m));
  if (!model) {
    throw new UserError(
      `None of the models installed in Ollama supports tools: ${names.join(", ")}`,
      { hint: `Run "ollama pull ${SUGGESTED_MODEL}" (or another model with tool support)` },
    );
  }
  return model;
}

/** A model that is not installed: pull it, or use one that is. */
async function notInstalled(root: string, model: string): Promise<UserError> {
  const names = await installedModels(root).catch(() => []);
  const installed = names.length > 0 ? `; installed: ${names.join(", ")}` : "";
  return new UserError(`Ollama has no model "${model}" installed${installed}`, {
    hint: pullHint(model),
  });
}

/** A model without tool support, with the installed models that have it. */
async function noTools(root: string, model: string): Promise<UserError> {
  const names = await installedModels(root).catch(() => [] as string[]);
  const shown = await Promise.all(
    names.map((name) => showModel(root, name).catch(() => undefined)),
  );
  const capable = shown.filter((m): m is OllamaModel => !!m && supportsTools(m)).map((m) => m.name);
  const refusal = toolsRefusal(model);
  const hint = capable.length > 0
    ? `Installed models with tool support: ${capable.join(", ")}; pass -m ${capable[0]}`
    : refusal.hint;
  return new UserError(refusal.message, { hint });
}

/** What start-up says about the window: how large, why, and what it costs. */
function contextNote(model: OllamaModel, tokens: number, configured?: number): string {
  const max = model.maxContext;
  const why = configured !== undefined
    ? (tokens < configured
      ? `model_context_window asks for ${tokenCount(configured)}, more than the model's maximum`
      : "model_context_window asks for it")
    : tokens < AGENT_CONTEXT_TOKENS
    ? `the model's maximum; an agent needs about ${tokenCount(AGENT_CONTEXT_TOKENS)}`
    : `an agent needs at least ${
      tokenCount(AGENT_CONTEXT_TOKENS)
    } and Ollama's default is a few thousand`;
  const limit = max !== undefined && max > tokens
    ? `; the model allows up to ${tokenCount(max)}`
    : "";
  const kv = model.kvBytesPerToken;
  const memory = kv
    ? `about ${(kv * tokens / GIB).toFixed(1)} GiB of KV cache at this size`
    : "its KV cache grows with every token";
  return `Ollama context window for ${model.name}: ${
    tokenCount(tokens)
  } tokens (options.num_ctx), ` +
    `because ${why}${limit}. A larger window costs memory (${memory}); ` +
    "model_context_window sets it";
}

/** Why the server cannot be used: not running, or not Ollama. */
function serverProblem(error: unknown, root: string): UserError {
  if (error instanceof LocalServerError && error.kind === "unreachable") {
    return new UserError(`Ollama is not running at ${root} (${error.message})`, {
      hint: startHint(root),
    });
  }
  const what = error instanceof Error ? error.message : String(error);
  return new UserError(`The server at ${root} does not answer like Ollama: ${what}`, {
    hint: "Point OLLAMA_HOST or base_url in [model_providers.ollama] at an Ollama server " +
      "(default http://localhost:11434)",
  });
}

/** Whether version text "0.12.6" (or "0.12.6-rc1") is older than `min`; unknown is not. */
function olderThan(version: string, min: number[]): boolean {
  const parts = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number);
  if (!parts) return false;
  for (let i = 0; i < min.length; i++) {
    if (parts[i] !== min[i]) return parts[i] < min[i];
  }
  return false;
}
