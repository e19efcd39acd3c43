/**
 * A fake vLLM OpenAI-compatible server on 127.0.0.1 for tests: `GET /health`, `GET /version`,
 * `GET /v1/models` (each served model with `owned_by: "vllm"`, `root`, `parent` and
 * `max_model_len`), and the rest of `/v1` through a fake provider behind it. With `apiKey`, as with
 * `vllm serve --api-key`, every `/v1` path answers 401 without it.
 */
import {
  type FakeProvider,
  type RecordedRequest,
  type ScriptTurn,
  startFakeProvider,
} from "../fake_provider/server.ts";
import { forward } from "../fake_ollama/server.ts";

/** One served model; `parent` makes it a LoRA adapter on that base model. */
export interface FakeVllmModel {
  id: string;
  maxModelLen?: number;
  parent?: string;
}

/** A running fake vLLM. */
export interface FakeVllm extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly origin: string;
  /** Requests to its own endpoints (`/v1/models`, `/version`, `/health`), in order. */
  readonly requests: RecordedRequest[];
  /** The chat side. */
  readonly v1: FakeProvider;
  close(): Promise<void>;
}

/** Starts a fake vLLM; close it with `close()` or `await using`. */
export function startFakeVllm(opts: {
  models: FakeVllmModel[];
  apiKey?: string;
  script?: ScriptTurn[];
}): FakeVllm {
  const requests: RecordedRequest[] = [];
  const v1 = startFakeProvider(opts.script ?? []);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    const keyed = request.headers.get("authorization") === `Bearer ${opts.apiKey}`;
    if (opts.apiKey && !keyed && path.startsWith("/v1")) {
      return Response.json({ error: "Unauthorized" }, { status: 401 });
    }
    if (["/v1/chat/completions", "/v1/responses", "/v1/messages"].includes(path)) {
      return forward(request, v1.origin + path);
    }
    requests.push({
      method: request.method,
      path,
      headers: Object.fromEntries(request.headers),
      body: null,
      turn: null,
    });
    if (path === "/health") return new Response(null, { status: 200 });
    if (path === "/version") return Response.json({ version: "0.11.0" });
    if (path === "/v1/models") return Response.json(list(opts.models));
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  const close = () => closing ??= Promise.all([server.shutdown(), v1.close()]).then(() => {});
  return { baseUrl: `${origin}/v1`, origin, requests, v1, close, [Symbol.asyncDispose]: close };
}

function list(models: FakeVllmModel[]) {
  return {
    object: "list",
    data: models.map((m) => ({
      id: m.id,
      object: "model",
      created: 1_700_000_000,
      owned_by: "vllm",
      root: m.parent ? `/adapters/${m.id}` : m.id,
      parent: m.parent ?? null,
      ...(m.maxModelLen === undefined ? {} : { max_model_len: m.maxModelLen }),
      permission: [],
    })),
  };
}
