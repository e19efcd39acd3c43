/**
 * A fake LM Studio on 127.0.0.1 for tests: its REST model list (`GET /api/v1/models`, or the
 * older `GET /api/v0/models` when `api` is "v0", in which case v1 answers 404) for a table of
 * downloaded models, and the OpenAI-compatible `/v1` through a fake provider behind it.
 */
import {
  type FakeProvider,
  type RecordedRequest,
  type ScriptTurn,
  startFakeProvider,
} from "../fake_provider/server.ts";
import { forward } from "../fake_ollama/server.ts";

/** One downloaded model; `loadedContext` set means it is loaded with that context length. */
export interface FakeLmStudioModel {
  key: string;
  loadedContext?: number;
  maxContext?: number;
  tools?: boolean;
  type?: "llm" | "embedding";
  /** `architecture` (v1) and `arch` (v0); default "qwen3". */
  architecture?: string;
  /** `params_string` (v1 only); default "8B". */
  params?: string;
}

/** A running fake LM Studio. */
export interface FakeLmStudio extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  /** Requests to the REST API, in order. */
  readonly requests: RecordedRequest[];
  /** The `/v1` side. */
  readonly v1: FakeProvider;
  close(): Promise<void>;
}

/** Starts a fake LM Studio; close it with `close()` or `await using`. */
export function startFakeLmStudio(opts: {
  models: FakeLmStudioModel[];
  script?: ScriptTurn[];
  api?: "v1" | "v0";
}): FakeLmStudio {
  const requests: RecordedRequest[] = [];
  const v1 = startFakeProvider(opts.script ?? []);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/v1/")) return forward(request, v1.origin + path);
    requests.push({
      method: request.method,
      path,
      headers: Object.fromEntries(request.headers),
      body: null,
      turn: null,
    });
    const api = opts.api ?? "v1";
    if (path === `/api/${api}/models`) {
      return Response.json(api === "v1" ? v1List(opts.models) : v0List(opts.models));
    }
    return Response.json({ error: `Unexpected endpoint ${path}` }, { status: 404 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  const close = () => closing ??= Promise.all([server.shutdown(), v1.close()]).then(() => {});
  return { baseUrl: `${origin}/v1`, requests, v1, close, [Symbol.asyncDispose]: close };
}

function v1List(models: FakeLmStudioModel[]) {
  return {
    models: models.map((m) => ({
      type: m.type ?? "llm",
      publisher: m.key.split("/")[0],
      key: m.key,
      display_name: m.key,
      architecture: m.architecture ?? "qwen3",
      quantization: { name: "Q4_K_M", bits_per_weight: 4 },
      size_bytes: 1000,
      params_string: m.params ?? "8B",
      loaded_instances: m.loadedContext === undefined ? [] : [{
        id: m.key,
        config: { context_length: m.loadedContext, eval_batch_size: 512, flash_attention: true },
      }],
      max_context_length: m.maxContext ?? 131_072,
      format: "gguf",
      capabilities: { vision: false, trained_for_tool_use: m.tools ?? true },
    })),
  };
}

function v0List(models: FakeLmStudioModel[]) {
  return {
    object: "list",
    data: models.map((m) => ({
      id: m.key,
      object: "model",
      type: m.type === "embedding" ? "embeddings" : "llm",
      publisher: m.key.split("/")[0],
      arch: m.architecture ?? "qwen3",
      compatibility_type: "gguf",
      quantization: "Q4_K_M",
      state: m.loadedContext === undefined ? "not-loaded" : "loaded",
      max_context_length: m.maxContext ?? 131_072,
      ...(m.loadedContext === undefined ? {} : { loaded_context_length: m.loadedContext }),
      ...(m.tools === undefined ? {} : { capabilities: m.tools ? ["tool_use"] : [] }),
    })),
  };
}
