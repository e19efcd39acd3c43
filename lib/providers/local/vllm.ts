/**
 * vLLM before the first turn: the server answers, it serves the model named (vLLM refuses any
 * other name), and that model's `max_model_len` from `GET /v1/models` becomes the session's
 * window. `--oss` without `-m` uses the model it serves. Chat goes over its OpenAI-compatible
 * `/v1`.
 */
import { UserError } from "../../errors.ts";
import { rec, str } from "../_blocks.ts";
import { localJson, LocalServerError } from "../local_json.ts";
import { AGENT_CONTEXT_TOKENS } from "../ollama_api.ts";
import type { ProviderSettings } from "../types.ts";
import { type LocalCheckOptions, type LocalSetup, tokenCount } from "./check.ts";
import { bearer, countOf, localServer, serverRoot, startCommand } from "./servers.ts";

/** One model vLLM serves: a base model, or a LoRA adapter on one (`parent`). */
export interface VllmModel {
  id: string;
  maxModelLen?: number;
  parent?: string;
}

/** Checks the vLLM server and model; see the module comment. */
export async function prepareVllm(
  settings: ProviderSettings,
  opts: LocalCheckOptions,
): Promise<LocalSetup> {
  const root = serverRoot(settings.baseUrl);
  const models = await listVllm(root, bearer(settings));
  const model = opts.chosen ? models.find((m) => m.id === opts.model) : pickServed(models, root);
  if (!model) throw notServed(models, opts.model, root);
  const notes: string[] = [];
  if (!opts.chosen) {
    notes.push(`Using vLLM model "${model.id}", the one it serves (-m chooses another)`);
  }
  const length = model.maxModelLen;
  if (length !== undefined && length < AGENT_CONTEXT_TOKENS) {
    notes.push(
      `vLLM serves "${model.id}" with a ${tokenCount(length)}-token context window ` +
        `(--max-model-len); an agent needs about ${tokenCount(AGENT_CONTEXT_TOKENS)}, so long ` +
        `sessions get cut: restart it with "--max-model-len ${AGENT_CONTEXT_TOKENS}" if the ` +
        "model and memory allow",
    );
  }
  const window = length === undefined
    ? opts.contextWindow
    : Math.min(opts.contextWindow ?? length, length);
  return { model: model.id, notes, ...(window === undefined ? {} : { contextWindow: window }) };
}

/** What the built-in `vllm` provider's server serves, with `max_model_len`: `/model`'s list. */
export async function servedVllmModels(
  settings: ProviderSettings,
  signal: AbortSignal,
): Promise<Array<{ id: string; context?: number }> | undefined> {
  if (settings.id !== "vllm") return undefined;
  const models = await listVllm(serverRoot(settings.baseUrl), bearer(settings), signal);
  return models.map((m) => ({
    id: m.id,
    ...(m.maxModelLen === undefined ? {} : { context: m.maxModelLen }),
  }));
}

/** `GET /v1/models`: `data[]` with `id`, `max_model_len` and, for an adapter, `parent`. */
export async function listVllm(
  root: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<VllmModel[]> {
  let body: unknown;
  try {
    body = await localJson(`${root}/v1/models`, { headers, signal });
  } catch (error) {
    throw serverProblem(error, root);
  }
  const data = rec(body).data;
  return (Array.isArray(data) ? data : []).map(rec).filter((m) => str(m.id)).map((m) => {
    const maxModelLen = countOf(m.max_model_len);
    const parent = str(m.parent);
    return {
      id: str(m.id)!,
      ...(maxModelLen === undefined ? {} : { maxModelLen }),
      ...(parent ? { parent } : {}),
    };
  });
}

/** The served base model (an adapter only when there is nothing else). */
function pickServed(models: VllmModel[], root: string): VllmModel {
  const model = models.find((m) => !m.parent) ?? models[0];
  if (model) return model;
  throw new UserError(`vLLM at ${root} serves no model`, {
    hint: `Start it with a model: "${startCommand(localServer("vllm"), root)}"`,
  });
}

function notServed(models: VllmModel[], name: string, root: string): UserError {
  const ids = models.map((m) => m.id);
  const served = ids.length > 0 ? `; it serves: ${ids.join(", ")}` : "";
  const start = startCommand(localServer("vllm"), root).replace("MODEL", name);
  return new UserError(`vLLM at ${root} does not serve "${name}"${served}`, {
    hint: ids.length > 0
      ? `Pass -m ${ids[0]}, or restart vLLM with "${start}"`
      : `Restart vLLM with "${start}"`,
  });
}

/** Why the server cannot be used: not running, locked, or not vLLM. */
function serverProblem(error: unknown, root: string): UserError {
  if (error instanceof LocalServerError && error.kind === "unreachable") {
    return new UserError(`vLLM is not running at ${root} (${error.message})`, {
      hint: `Start it with "${startCommand(localServer("vllm"), root)}" (PARSER for the ` +
        "model's family: hermes, qwen3_coder, llama3_json, mistral, openai for gpt-oss), then " +
        "try again; if it runs elsewhere, set base_url in [model_providers.vllm]",
    });
  }
  if (error instanceof LocalServerError && (error.status === 401 || error.status === 403)) {
    return new UserError(`vLLM at ${root} asks for an API key (HTTP ${error.status})`, {
      hint: 'Set env_key = "VLLM_API_KEY" in [model_providers.vllm] and export the key vLLM ' +
        "was started with (--api-key)",
    });
  }
  const what = error instanceof Error ? error.message : String(error);
  return new UserError(`The server at ${root} does not answer like vLLM: ${what}`, {
    hint: "Point base_url in [model_providers.vllm] at vLLM's OpenAI-compatible server " +
      "(default http://127.0.0.1:8000/v1)",
  });
}
