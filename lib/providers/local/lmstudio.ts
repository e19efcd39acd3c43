/**
 * LM Studio before the first turn: the server answers, the model is loaded (with the context
 * length it was loaded with, which becomes the session's window) and was trained for tool use.
 * `--oss --local-provider lmstudio` without `-m` picks the first loaded model. Chat itself goes
 * over LM Studio's OpenAI-compatible `/v1`.
 */
import { UserError } from "../../errors.ts";
import { rec, str } from "../_blocks.ts";
import { localJson, LocalServerError } from "../local_json.ts";
import { AGENT_CONTEXT_TOKENS, type ModelParameters, parameterCount } from "../ollama_api.ts";
import type { ProviderSettings } from "../types.ts";
import { type LocalCheckOptions, type LocalSetup, tokenCount } from "./check.ts";

/** Offered when nothing is downloaded: the built-in provider's default model. */
const SUGGESTED_MODEL = "openai/gpt-oss-20b";

/** One downloaded model as LM Studio's REST API lists it. */
export interface LmStudioModel {
  key: string;
  /** Ids of its loaded instances, with the context length each was loaded with. */
  loaded: Array<{ id: string; contextLength?: number }>;
  maxContext?: number;
  /** Whether it was trained for tool use; undefined when the server does not say. */
  tools?: boolean;
  /** Its architecture ("qwen2", "llama"): the family the harness choice may go by. */
  architecture?: string;
  /** `params_string` ("0.6B", v1 only) and the count it stands for. */
  parameters?: ModelParameters;
}

/** Checks the LM Studio server and model; see the module comment. */
export async function prepareLmStudio(
  settings: ProviderSettings,
  opts: LocalCheckOptions,
): Promise<LocalSetup> {
  const { root, headers } = serverOf(settings);
  const models = await listModels(root, headers);
  const notes: string[] = [];
  const model = opts.chosen ? findModel(models, opts.model) : pickLoaded(models);
  if (!model) throw notDownloaded(models, opts.model);
  const instance = model.loaded.find((i) => i.id === opts.model) ?? model.loaded[0];
  if (!instance) {
    throw new UserError(`LM Studio model "${model.key}" is not loaded`, {
      hint: `Load it with "${loadCommand(model)}", then try again`,
    });
  }
  const name = opts.chosen ? opts.model : instance.id;
  if (!opts.chosen) {
    notes.push(`Using LM Studio model "${name}", the first one loaded (-m chooses another)`);
  }
  const loadedLength = instance.contextLength;
  if (loadedLength !== undefined && loadedLength < AGENT_CONTEXT_TOKENS) {
    const roomier = (model.maxContext ?? Infinity) > loadedLength;
    notes.push(
      `LM Studio loaded "${model.key}" with a ${tokenCount(loadedLength)}-token context window; ` +
        `an agent needs about ${tokenCount(AGENT_CONTEXT_TOKENS)}, so long sessions get cut` +
        (roomier ? `: reload it with "lms unload ${model.key}" and "${loadCommand(model)}"` : ""),
    );
  }
  if (model.tools === false) {
    const trained = models.filter((m) => m.tools && m.loaded.length > 0).map((m) => m.key);
    notes.push(
      `LM Studio says "${model.key}" was not trained for tool use, so its tool calls may fail` +
        (trained.length > 0 ? `; loaded models that were: ${trained.join(", ")}` : ""),
    );
  }
  const window = loadedLength === undefined
    ? opts.contextWindow
    : Math.min(opts.contextWindow ?? loadedLength, loadedLength);
  return {
    model: name,
    notes,
    ...(window === undefined ? {} : { contextWindow: window }),
    ...(model.architecture ? { families: [model.architecture] } : {}),
    ...(model.parameters ? { parameters: model.parameters } : {}),
  };
}

/**
 * The models loaded in the LM Studio server of the built-in `lmstudio` provider, with the
 * context length each was loaded with: `/model`'s live list.
 */
export async function loadedLmStudioModels(
  settings: ProviderSettings,
  signal: AbortSignal,
): Promise<Array<{ id: string; context?: number }> | undefined> {
  if (settings.id !== "lmstudio") return undefined;
  const { root, headers } = serverOf(settings);
  const models = await listModels(root, headers, signal);
  return models.flatMap((m) =>
    m.loaded.map((i) => ({ id: i.id, ...(i.contextLength ? { context: i.contextLength } : {}) }))
  );
}

function serverOf(settings: ProviderSettings) {
  const root = settings.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  const headers: Record<string, string> = settings.apiKey
    ? { authorization: `Bearer ${settings.apiKey}` }
    : {};
  return { root, headers };
}

/** `GET /api/v1/models` (LM Studio 0.4), else the older `GET /api/v0/models`. */
async function listModels(
  root: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<LmStudioModel[]> {
  try {
    try {
      return parseV1(await localJson(`${root}/api/v1/models`, { headers, signal }));
    } catch (error) {
      if (!(error instanceof LocalServerError && error.status === 404)) throw error;
      return parseV0(await localJson(`${root}/api/v0/models`, { headers, signal }));
    }
  } catch (error) {
    throw serverProblem(error, root);
  }
}

/** The v1 list: `models[]` with `key`, `loaded_instances` and `capabilities.trained_for_tool_use`. */
export function parseV1(body: unknown): LmStudioModel[] {
  const models = rec(body).models;
  return (Array.isArray(models) ? models : []).map(rec)
    .filter((m) => m.type !== "embedding" && str(m.key))
    .map((m) => {
      const instances = Array.isArray(m.loaded_instances) ? m.loaded_instances.map(rec) : [];
      const tools = rec(m.capabilities).trained_for_tool_use;
      return {
        key: str(m.key)!,
        loaded: instances.map((i) => ({
          id: str(i.id) ?? str(m.key)!,
          contextLength: numberOrUndefined(rec(i.config).context_length),
        })),
        maxContext: numberOrUndefined(m.max_context_length),
        tools: typeof tools === "boolean" ? tools : undefined,
        ...sizeFacts(str(m.architecture), str(m.params_string)),
      };
    });
}

/** The architecture and parameter count, where the list gives them. */
function sizeFacts(
  architecture: string | undefined,
  params: string | undefined,
): Pick<LmStudioModel, "architecture" | "parameters"> {
  const count = params ? parameterCount(params) : undefined;
  return {
    ...(architecture ? { architecture } : {}),
    ...(count !== undefined ? { parameters: { count, text: params!.trim() } } : {}),
  };
}

/** The v0 list: `data[]` with `id`, `state`, `loaded_context_length` and `capabilities[]`. */
export function parseV0(body: unknown): LmStudioModel[] {
  const data = rec(body).data;
  return (Array.isArray(data) ? data : []).map(rec)
    .filter((m) => m.type !== "embeddings" && str(m.id))
    .map((m) => ({
      key: str(m.id)!,
      loaded: m.state === "loaded"
        ? [{ id: str(m.id)!, contextLength: numberOrUndefined(m.loaded_context_length) }]
        : [],
      maxContext: numberOrUndefined(m.max_context_length),
      tools: Array.isArray(m.capabilities) ? m.capabilities.includes("tool_use") : undefined,
      ...sizeFacts(str(m.arch), undefined),
    }));
}

/** The model named `name`: by key, or by the id of one of its loaded instances. */
function findModel(models: LmStudioModel[], name: string): LmStudioModel | undefined {
  return models.find((m) => m.key === name) ??
    models.find((m) => m.loaded.some((i) => i.id === name));
}

/** The first loaded model, one trained for tool use first. */
function pickLoaded(models: LmStudioModel[]): LmStudioModel {
  const loaded = models.filter((m) => m.loaded.length > 0);
  const model = loaded.find((m) => m.tools !== false) ?? loaded[0];
  if (model) return model;
  const first = models[0];
  throw new UserError("No model is loaded in LM Studio", {
    hint: first
      ? `Load one with "${loadCommand(first)}" (downloaded: ${keys(models)}), or pass -m NAME`
      : `Download and load one: "lms get ${SUGGESTED_MODEL}", then "lms load ${SUGGESTED_MODEL}"`,
  });
}

function notDownloaded(models: LmStudioModel[], name: string): UserError {
  const downloaded = models.length > 0 ? `; downloaded: ${keys(models)}` : "";
  return new UserError(`LM Studio has no model "${name}"${downloaded}`, {
    hint: `Download it with "lms get ${name}", or pick a downloaded model with -m`,
  });
}

/** `lms load` with the context an agent needs, within the model's maximum. */
function loadCommand(model: LmStudioModel): string {
  const length = Math.min(AGENT_CONTEXT_TOKENS, model.maxContext ?? AGENT_CONTEXT_TOKENS);
  return `lms load ${model.key} --context-length ${length}`;
}

function serverProblem(error: unknown, root: string): UserError {
  if (error instanceof LocalServerError && error.kind === "unreachable") {
    return new UserError(`LM Studio's server is not running at ${root} (${error.message})`, {
      hint: 'Start it with "lms server start" (or in LM Studio: Developer, Start Server), then ' +
        "try again; if it runs elsewhere, set base_url in [model_providers.lmstudio]",
    });
  }
  if (error instanceof LocalServerError && (error.status === 401 || error.status === 403)) {
    return new UserError(`LM Studio at ${root} asks for an API token (HTTP ${error.status})`, {
      hint: 'Set env_key = "LM_API_TOKEN" in [model_providers.lmstudio] and export the token',
    });
  }
  const what = error instanceof Error ? error.message : String(error);
  return new UserError(`The server at ${root} does not answer like LM Studio: ${what}`, {
    hint: "Point base_url in [model_providers.lmstudio] at LM Studio (default " +
      "http://localhost:1234/v1); its REST API needs LM Studio 0.3.6 or newer",
  });
}

function keys(models: LmStudioModel[]): string {
  return models.map((m) => m.key).join(", ");
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
