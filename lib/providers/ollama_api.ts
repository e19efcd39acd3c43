/**
 * Ollama's native API besides the chat stream: where the server is, its version, the installed
 * models, what `/api/show` says about one of them, and the context window to ask it for.
 */
import { rec, str } from "./_blocks.ts";
import { localJson } from "./local_json.ts";

/** The window an agent loop needs; Ollama's own default is a few thousand tokens. */
export const AGENT_CONTEXT_TOKENS = 65_536;
/** Ollama's port when `OLLAMA_HOST` names none. */
const DEFAULT_PORT = "11434";
/** Architectures whose `think` takes a level ("low", "medium", "high") instead of a boolean. */
const THINK_LEVEL_ARCHITECTURES = new Set(["gptoss"]);
/** KV cache bytes per element at Ollama's default cache type (f16). */
const KV_BYTES_PER_ELEMENT = 2;

/** What `/api/show` says about one installed model. */
export interface OllamaModel {
  name: string;
  /** `capabilities` ("completion", "tools", "thinking", "vision", ...); undefined on old servers. */
  capabilities?: string[];
  architecture?: string;
  /** `model_info["<arch>.context_length"]`: the longest context the model was built for. */
  maxContext?: number;
  /** `num_ctx` among the Modelfile's parameters, when it sets one. */
  modelfileContext?: number;
  /** KV cache bytes one token of context costs (f16), when the model info tells it. */
  kvBytesPerToken?: number;
  /** `details.family`, then the other `details.families` ("qwen2", "llama", "gemma3"). */
  families?: string[];
  /** `details.parameter_size` ("0.6B", "751.63M") and the count it stands for. */
  parameters?: ModelParameters;
}

/** A model's parameter count as a server reports it: its own text, and the number. */
export interface ModelParameters {
  count: number;
  text: string;
}

/**
 * `OLLAMA_HOST` as Ollama's own client reads it (`host`, `host:port`, `scheme://host:port`,
 * default port 11434), as a base URL ending in `/v1`. `0.0.0.0`, the address a server listens on
 * everywhere, is reached at 127.0.0.1.
 */
export function ollamaHostBaseUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const [scheme, rest] = text.includes("://") ? text.split("://", 2) : ["http", text];
  const hostPort = rest.split("/")[0];
  const defaultPort = text.includes("://") ? (scheme === "https" ? "443" : "80") : DEFAULT_PORT;
  const match = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(hostPort);
  let host = match?.[1] || "127.0.0.1";
  if (host === "0.0.0.0") host = "127.0.0.1";
  if (host === "[::]") host = "[::1]";
  return `${scheme}://${host}:${match?.[2] ?? defaultPort}/v1`;
}

/** The server root of an Ollama base URL: `http://host:11434/v1` → `http://host:11434`. */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** `GET /api/version`. */
export async function ollamaVersion(root: string, signal?: AbortSignal): Promise<string> {
  return str(rec(await localJson(`${root}/api/version`, { signal })).version) ?? "unknown";
}

/** `GET /api/tags`: the installed models' names, most recently changed first. */
export async function installedModels(root: string, signal?: AbortSignal): Promise<string[]> {
  const models = rec(await localJson(`${root}/api/tags`, { signal })).models;
  return (Array.isArray(models) ? models : [])
    .map((m) => str(rec(m).name) ?? str(rec(m).model))
    .filter((name): name is string => !!name);
}

const shown = new Map<string, Promise<OllamaModel | undefined>>();

/**
 * `POST /api/show` for `model`; undefined when it is not installed. Answers are kept for the
 * process (a model's facts do not change while it runs), so start-up and the chat adapter ask once.
 */
export function showModel(root: string, model: string): Promise<OllamaModel | undefined> {
  const key = `${root} ${model}`;
  let answer = shown.get(key);
  if (!answer) {
    answer = fetchShow(root, model);
    shown.set(key, answer);
    answer.catch(() => shown.delete(key));
  }
  return answer;
}

async function fetchShow(root: string, model: string): Promise<OllamaModel | undefined> {
  let body: unknown;
  try {
    body = await localJson(`${root}/api/show`, { body: { model } });
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
  const show = rec(body);
  const info = rec(show.model_info);
  const architecture = str(info["general.architecture"]);
  const field = (name: string) =>
    architecture ? numberOf(info[`${architecture}.${name}`]) : undefined;
  const capabilities = Array.isArray(show.capabilities)
    ? show.capabilities.filter((c): c is string => typeof c === "string")
    : undefined;
  const numCtx = /^num_ctx\s+(\d+)\s*$/m.exec(str(show.parameters) ?? "")?.[1];
  return {
    name: model,
    capabilities,
    architecture,
    maxContext: field("context_length"),
    modelfileContext: numCtx ? Number(numCtx) : undefined,
    kvBytesPerToken: kvBytes(field),
    ...detailsOf(rec(show.details), numberOf(info["general.parameter_count"])),
  };
}

/** The families and parameter count in `/api/show`'s `details`. */
function detailsOf(
  details: Record<string, unknown>,
  exactCount: number | undefined,
): Pick<OllamaModel, "families" | "parameters"> {
  const listed = Array.isArray(details.families) ? details.families.map(str) : [];
  const families = [...new Set([str(details.family), ...listed])]
    .filter((f): f is string => !!f);
  const text = str(details.parameter_size);
  const count = exactCount ?? (text ? parameterCount(text) : undefined);
  return {
    ...(families.length > 0 ? { families } : {}),
    ...(count !== undefined ? { parameters: { count, text: text ?? parameterText(count) } } : {}),
  };
}

const PARAMETER_UNITS: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

/** The count a parameter size text stands for: "0.6B", "751.63M", "8x7B"; undefined if none. */
export function parameterCount(text: string): number | undefined {
  const m = /^\s*(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*([KMBT])\s*$/i.exec(text);
  if (!m) return undefined;
  return Number(m[1] ?? 1) * Number(m[2]) * PARAMETER_UNITS[m[3].toUpperCase()];
}

/** A count as a short text: 751,632,384 → "752M", 6e8 → "0.6B". */
function parameterText(count: number): string {
  return count >= 1e9 ? `${Number((count / 1e9).toFixed(1))}B` : `${Math.round(count / 1e6)}M`;
}

/** KV cache per token: layers × KV heads × (key + value length) × bytes per element. */
function kvBytes(field: (name: string) => number | undefined): number | undefined {
  const layers = field("block_count");
  const kvHeads = field("attention.head_count_kv") ?? field("attention.head_count");
  const heads = field("attention.head_count");
  const embedding = field("embedding_length");
  const headDim = embedding && heads ? embedding / heads : undefined;
  const keyLength = field("attention.key_length") ?? headDim;
  const valueLength = field("attention.value_length") ?? headDim;
  if (!layers || !kvHeads || !keyLength || !valueLength) return undefined;
  return layers * kvHeads * (keyLength + valueLength) * KV_BYTES_PER_ELEMENT;
}

/** A number, or the mean of a per-layer array of numbers (some models vary KV heads by layer). */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "number")) {
    return value.reduce((a, b) => a + b, 0) / value.length;
  }
  return undefined;
}

/** The context window to ask Ollama for (`options.num_ctx`), and what decided it. */
export interface ContextChoice {
  tokens: number;
  /** "configured": `model_context_window`; "agent": the 64k floor (or the Modelfile's larger one). */
  source: "configured" | "agent";
  /** True when the model's maximum cut the wanted window. */
  capped: boolean;
}

/**
 * `model_context_window` when set, else at least 65,536 tokens (a Modelfile's larger `num_ctx`
 * is kept), never past the model's maximum.
 */
export function chooseContextWindow(
  model: OllamaModel | undefined,
  configured?: number,
): ContextChoice {
  const wanted = configured ?? Math.max(AGENT_CONTEXT_TOKENS, model?.modelfileContext ?? 0);
  const max = model?.maxContext;
  const capped = max !== undefined && max < wanted;
  return { tokens: capped ? max : wanted, source: configured ? "configured" : "agent", capped };
}

/** How `think` is set for a model: a level, a boolean, or not at all (no thinking capability). */
export function thinkStyle(model: OllamaModel | undefined): "level" | "boolean" | undefined {
  if (!model?.capabilities?.includes("thinking")) return undefined;
  return THINK_LEVEL_ARCHITECTURES.has(model.architecture ?? "") ? "level" : "boolean";
}

/** Whether the model can call tools; true when the server does not say (old versions). */
export function supportsTools(model: OllamaModel): boolean {
  return model.capabilities === undefined || model.capabilities.includes("tools");
}
