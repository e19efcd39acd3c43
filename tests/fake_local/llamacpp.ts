/**
 * A fake llama.cpp `llama-server` on 127.0.0.1 for tests: `GET /health`, `GET /props` (the
 * context of one slot in `default_generation_settings.n_ctx`, and at the top level as newer builds
 * also report it), `GET /v1/models` (one model, or several as a router serves them, `owned_by:
 * "llamacpp"`), and the rest of `/v1` through a fake provider behind it. With `apiKey`, as with
 * `llama-server --api-key`, everything but `/health` and `/v1/models` answers 401 without it; with
 * `loading`, everything but `/health` answers 503 as while the model loads.
 */
import {
  type FakeProvider,
  type RecordedRequest,
  type ScriptTurn,
  startFakeProvider,
} from "../fake_provider/server.ts";
import { forward } from "../fake_ollama/server.ts";

/** Tuning for `startFakeLlamaCpp`. */
export interface FakeLlamaCppOptions {
  /** Served model ids; default one, as `-hf ggml-org/gpt-oss-20b-GGUF` serves it. */
  models?: string[];
  /** Context of one slot; default 65,536. */
  nCtx?: number;
  /** Parallel slots (`-np`); default 1. */
  slots?: number;
  /** Where `/props` says `n_ctx`: both places (default), only nested (older builds), or top. */
  props?: "both" | "nested" | "top";
  /** `meta.n_ctx` of a model in `/v1/models`, as routers and newer builds report it. */
  modelContexts?: Record<string, number>;
  /** `meta.n_params` of every model in `/v1/models`; default 20,914,757,184 (gpt-oss-20b). */
  params?: number;
  apiKey?: string;
  loading?: boolean;
  script?: ScriptTurn[];
}

/** A running fake llama-server. */
export interface FakeLlamaCpp extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly origin: string;
  /** Requests to its own endpoints (`/props`, `/v1/models`, `/health`), in order. */
  readonly requests: RecordedRequest[];
  /** The chat side. */
  readonly v1: FakeProvider;
  close(): Promise<void>;
}

const PUBLIC = new Set(["/health", "/v1/health", "/models", "/v1/models"]);

/** Starts a fake llama-server; close it with `close()` or `await using`. */
export function startFakeLlamaCpp(opts: FakeLlamaCppOptions = {}): FakeLlamaCpp {
  const requests: RecordedRequest[] = [];
  const v1 = startFakeProvider(opts.script ?? []);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (opts.loading && path !== "/health") {
      return error(503, "Loading model", "unavailable_error");
    }
    const keyed = request.headers.get("authorization") === `Bearer ${opts.apiKey}`;
    if (opts.apiKey && !keyed && !PUBLIC.has(path)) {
      return error(401, "Invalid API Key", "authentication_error");
    }
    if (["/v1/chat/completions", "/v1/messages"].includes(path)) {
      return forward(request, v1.origin + path);
    }
    requests.push({
      method: request.method,
      path,
      headers: Object.fromEntries(request.headers),
      body: null,
      turn: null,
    });
    if (path === "/health") return Response.json({ status: "ok" });
    if (path === "/props") return Response.json(props(opts));
    if (path === "/v1/models") return Response.json(models(opts));
    return error(404, "File Not Found", "not_found_error");
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  const close = () => closing ??= Promise.all([server.shutdown(), v1.close()]).then(() => {});
  return { baseUrl: `${origin}/v1`, origin, requests, v1, close, [Symbol.asyncDispose]: close };
}

function props(opts: FakeLlamaCppOptions) {
  const nCtx = opts.nCtx ?? 65_536;
  const where = opts.props ?? "both";
  return {
    default_generation_settings: {
      params: { temperature: 0.8, top_k: 40, n_predict: -1 },
      ...(where === "top" ? {} : { n_ctx: nCtx }),
    },
    ...(where === "nested" ? {} : { n_ctx: nCtx }),
    total_slots: opts.slots ?? 1,
    model_path: "/models/model.gguf",
    modalities: { vision: false, audio: false },
    chat_template: "{{ messages }}",
    build_info: "b7000-fake",
  };
}

function models(opts: FakeLlamaCppOptions) {
  const ids = opts.models ?? ["ggml-org/gpt-oss-20b-GGUF"];
  return {
    object: "list",
    data: ids.map((id) => ({
      id,
      object: "model",
      created: 1_700_000_000,
      owned_by: "llamacpp",
      meta: {
        n_ctx_train: 131_072,
        n_params: opts.params ?? 20_914_757_184,
        ...(opts.modelContexts?.[id] ? { n_ctx: opts.modelContexts[id] } : {}),
      },
    })),
  };
}

function error(status: number, message: string, type: string): Response {
  return Response.json({ error: { code: status, message, type } }, { status });
}
