/**
 * llama.cpp's `llama-server` before the first turn: the server answers, the model named is one it
 * serves, and the context of one of its slots (what a request gets; `GET /props`) becomes the
 * session's window. `--oss` without `-m` uses the model it serves. Chat goes over its
 * OpenAI-compatible `/v1` (or its `/v1/messages` with `wire_api = "messages"`).
 */
import { UserError } from "../../errors.ts";
import { rec, str } from "../_blocks.ts";
import { localErrorText, localJson, LocalServerError } from "../local_json.ts";
import { AGENT_CONTEXT_TOKENS } from "../ollama_api.ts";
import type { ProviderSettings } from "../types.ts";
import { type LocalCheckOptions, type LocalSetup, tokenCount } from "./check.ts";
import { bearer, countOf, localServer, serverRoot, startCommand } from "./servers.ts";

/** What `llama-server` says about itself. */
export interface LlamaCppServer {
  /** `GET /v1/models`: one model, or several in router mode; its context and size where it says. */
  models: Array<{ id: string; context?: number; params?: number }>;
  /** `GET /props`: the context of one slot (`default_generation_settings.n_ctx`). */
  slotContext?: number;
  /** `GET /props`: how many requests it serves at once, sharing `-c` between them. */
  slots?: number;
}

/** Checks the llama.cpp server and model; see the module comment. */
export async function prepareLlamaCpp(
  settings: ProviderSettings,
  opts: LocalCheckOptions,
): Promise<LocalSetup> {
  const root = serverRoot(settings.baseUrl);
  const server = await readLlamaCpp(root, bearer(settings));
  const model = pickModel(server, opts, root);
  const notes: string[] = [];
  if (!opts.chosen) {
    notes.push(`Using llama.cpp model "${model}", the one llama-server serves (-m names another)`);
  }
  const context = server.models.find((m) => m.id === model)?.context ?? server.slotContext;
  if (context !== undefined && context < AGENT_CONTEXT_TOKENS) {
    const slots = (server.slots ?? 1) > 1
      ? ` and "-np 1" (its ${server.slots} slots share the -c tokens)`
      : "";
    notes.push(
      `llama-server gives each request a ${tokenCount(context)}-token context window; an agent ` +
        `needs about ${tokenCount(AGENT_CONTEXT_TOKENS)}, so long sessions get cut: restart it ` +
        `with "-c ${AGENT_CONTEXT_TOKENS}"${slots}`,
    );
  }
  const window = context === undefined
    ? opts.contextWindow
    : Math.min(opts.contextWindow ?? context, context);
  const params = server.models.find((m) => m.id === model)?.params;
  return {
    model,
    notes,
    ...(window === undefined ? {} : { contextWindow: window }),
    ...(params === undefined ? {} : { parameters: { count: params, text: sizeText(params) } }),
  };
}

/** A parameter count as models are named: 596,049,920 → "0.6B", 20,914,757,184 → "20.9B". */
function sizeText(count: number): string {
  const [unit, scale] = count >= 1e8 ? ["B", 1e9] : ["M", 1e6];
  return `${Number((count / scale).toFixed(1))}${unit}`;
}

/** The models of the built-in `llamacpp` provider's server, with their context: `/model`'s list. */
export async function servedLlamaCppModels(
  settings: ProviderSettings,
  signal: AbortSignal,
): Promise<Array<{ id: string; context?: number }> | undefined> {
  if (settings.id !== "llamacpp") return undefined;
  const server = await readLlamaCpp(serverRoot(settings.baseUrl), bearer(settings), signal);
  const single = server.models.length === 1 ? server.slotContext : undefined;
  return server.models.map((m) => {
    const context = m.context ?? single;
    return { id: m.id, ...(context === undefined ? {} : { context }) };
  });
}

/** `GET /v1/models` and `GET /props` at once; only the model list is required. */
export async function readLlamaCpp(
  root: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<LlamaCppServer> {
  const props = localJson(`${root}/props`, { headers, signal }).catch(() => undefined);
  let listed: unknown;
  try {
    listed = await localJson(`${root}/v1/models`, { headers, signal });
  } catch (error) {
    throw serverProblem(error, root);
  }
  const data = rec(listed).data;
  const models = (Array.isArray(data) ? data : []).map(rec).filter((m) => str(m.id)).map((m) => {
    const context = countOf(rec(m.meta).n_ctx);
    const params = countOf(rec(m.meta).n_params);
    return {
      id: str(m.id)!,
      ...(context === undefined ? {} : { context }),
      ...(params === undefined ? {} : { params }),
    };
  });
  const shown = rec(await props);
  const slotContext = countOf(rec(shown.default_generation_settings).n_ctx) ??
    countOf(shown.n_ctx);
  const slots = countOf(shown.total_slots);
  return {
    models,
    ...(slotContext === undefined ? {} : { slotContext }),
    ...(slots === undefined ? {} : { slots }),
  };
}

/**
 * The chosen model, or the one served. One served model answers to any name (llama-server
 * ignores it), so a chosen name is checked only against a router's list of several.
 */
function pickModel(server: LlamaCppServer, opts: LocalCheckOptions, root: string): string {
  const ids = server.models.map((m) => m.id);
  if (opts.chosen) {
    if (ids.length <= 1 || ids.includes(opts.model)) return opts.model;
    throw new UserError(
      `llama.cpp's server at ${root} has no model "${opts.model}"; it serves: ${ids.join(", ")}`,
      { hint: `Pick one of them with -m, for example -m ${ids[0]}` },
    );
  }
  if (ids[0] !== undefined) return ids[0];
  throw new UserError(`llama.cpp's server at ${root} lists no model`, {
    hint: `Start it with a model: "${startCommand(localServer("llamacpp"), root)}"`,
  });
}

/** Why the server cannot be used: not running, locked, still loading, or not llama.cpp. */
function serverProblem(error: unknown, root: string): UserError {
  if (error instanceof LocalServerError && error.kind === "unreachable") {
    return new UserError(`llama.cpp's server is not running at ${root} (${error.message})`, {
      hint: `Start it with "${startCommand(localServer("llamacpp"), root)}" (--jinja is needed ` +
        "for tool calls), then try again; if it runs elsewhere, set base_url in " +
        "[model_providers.llamacpp]",
    });
  }
  if (error instanceof LocalServerError && (error.status === 401 || error.status === 403)) {
    return new UserError(
      `llama.cpp's server at ${root} asks for an API key (HTTP ${error.status})`,
      {
        hint: 'Set env_key = "LLAMA_API_KEY" in [model_providers.llamacpp] and export the key ' +
          "llama-server was started with (--api-key)",
      },
    );
  }
  if (error instanceof LocalServerError && error.status === 503) {
    const why = localErrorText(error.body) ?? "HTTP 503";
    return new UserError(`llama.cpp's server at ${root} is not ready: ${why}`, {
      hint: `Wait until "${root}/health" answers {"status":"ok"} (the model is loading), then ` +
        "try again",
    });
  }
  const what = error instanceof Error ? error.message : String(error);
  return new UserError(`The server at ${root} does not answer like llama.cpp's server: ${what}`, {
    hint: "Point base_url in [model_providers.llamacpp] at llama-server " +
      "(default http://127.0.0.1:8080/v1)",
  });
}
