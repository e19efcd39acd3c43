/**
 * A fake Ollama server on 127.0.0.1 for tests. It speaks the native API (`GET /api/version`,
 * `GET /api/tags`, `POST /api/show`, `POST /api/chat` streamed as NDJSON with thinking and tool
 * calls) for a table of installed models, and the OpenAI-compatible `/v1` through a fake
 * provider behind it. Chat replies come from a script of the fake provider's turns.
 *
 * Like Ollama, `/api/chat` refuses a model that is not installed (404), tools for a model without
 * the "tools" capability and `think` for one without "thinking" (400). Every chat request is also
 * checked against the fake provider's invariants and the turn's `expect`; a request that breaks
 * one is recorded in `failures` and answered with HTTP 400.
 */
import { checkExpect, checkRequest, newLedger, recordIssued } from "../fake_provider/invariants.ts";
import { chunks, type IdCounters, planReply, type ReplyPlan } from "../fake_provider/plan.ts";
import { validateScript } from "../fake_provider/script.ts";
import {
  type Failure,
  type FakeProvider,
  type RecordedRequest,
  type ScriptTurn,
  startFakeProvider,
} from "../fake_provider/server.ts";
import { isObject } from "../fake_provider/tool_shapes.ts";
import { viewOllamaChat } from "./view.ts";

/** One installed model. */
export interface FakeOllamaModel {
  name: string;
  /** `/api/show` capabilities; default completion and tools. Null leaves the field out (old servers). */
  capabilities?: string[] | null;
  /** Default: the name's leading letters and digits ("llama3.1:8b" → "llama3"). */
  architecture?: string;
  /** `details.family`; default the architecture. */
  family?: string;
  /** `details.parameter_size` ("0.6B"); left out by default. */
  parameterSize?: string;
  /** `model_info["<arch>.context_length"]`. */
  contextLength?: number;
  /** `/api/show` parameters text, e.g. "num_ctx 131072". */
  parameters?: string;
}

/** Tuning for `startFakeOllama`. */
export interface FakeOllamaOptions {
  models: FakeOllamaModel[];
  script?: ScriptTurn[];
  version?: string;
  /** Code points per streamed text or thinking piece. Default 8. */
  chunkSize?: number;
}

/** A running fake Ollama. */
export interface FakeOllama extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`, the value for OLLAMA_HOST. */
  readonly origin: string;
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  /** Every request to the native API, in order. */
  readonly requests: RecordedRequest[];
  readonly failures: Failure[];
  /** The `/v1` side, with its own copy of the script. */
  readonly v1: FakeProvider;
  /** Bodies of the `/api/chat` requests. */
  chatBodies(): Record<string, unknown>[];
  remaining(): number;
  close(): Promise<void>;
}

interface State {
  opts: FakeOllamaOptions;
  script: ScriptTurn[];
  next: number;
  ids: IdCounters;
  ledger: ReturnType<typeof newLedger>;
  requests: RecordedRequest[];
  failures: Failure[];
}

/** Starts a fake Ollama; close it with `close()` or `await using`. */
export function startFakeOllama(opts: FakeOllamaOptions): FakeOllama {
  const script = validateScript(opts.script ?? []);
  const state: State = {
    opts,
    script,
    next: 0,
    ids: new Map(),
    ledger: newLedger(),
    requests: [],
    failures: [],
  };
  const v1 = startFakeProvider(script);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/v1/")) return forward(request, v1.origin + url.pathname);
    return handle(request, url.pathname, state);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  const close = () => closing ??= Promise.all([server.shutdown(), v1.close()]).then(() => {});
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests: state.requests,
    failures: state.failures,
    v1,
    chatBodies: () =>
      state.requests.filter((r) => r.path === "/api/chat").map((r) =>
        r.body as Record<string, unknown>
      ),
    remaining: () => state.script.length - state.next,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Passes `request` on to `url` and streams its answer back (the `/v1` side). */
export async function forward(request: Request, url: string): Promise<Response> {
  const reply = await fetch(url, {
    method: request.method,
    headers: request.headers,
    body: request.method === "GET" ? undefined : await request.text(),
  });
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

async function handle(request: Request, path: string, state: State): Promise<Response> {
  const raw = request.method === "GET" ? "" : await request.text();
  const body = parseJson(raw);
  const recorded: RecordedRequest = {
    method: request.method,
    path,
    headers: Object.fromEntries(request.headers),
    body: body ?? raw,
    turn: null,
  };
  state.requests.push(recorded);
  const route = `${request.method} ${path}`;
  if (route === "GET /api/version") {
    return Response.json({ version: state.opts.version ?? "0.12.6" });
  }
  if (route === "GET /api/tags") return Response.json({ models: state.opts.models.map(tagOf) });
  const model = isObject(body) ? findModel(state, body.model ?? body.name) : undefined;
  const name = isObject(body) ? String(body.model ?? body.name) : "";
  if (route === "POST /api/show") {
    return model ? Response.json(showOf(model)) : ollamaError(404, `model '${name}' not found`);
  }
  if (route !== "POST /api/chat") return fail(state, recorded, 404, [`No route for ${route}`]);
  if (!model) return ollamaError(404, `model "${name}" not found, try pulling it first`);
  const chatBody = body as Record<string, unknown>;
  const capabilities = capabilitiesOf(model) ?? [];
  const tools = Array.isArray(chatBody.tools) ? chatBody.tools : [];
  if (tools.length > 0 && !capabilities.includes("tools")) {
    return ollamaError(400, `registry.ollama.ai/library/${model.name} does not support tools`);
  }
  if (
    ![undefined, false].includes(chatBody.think as boolean) && !capabilities.includes("thinking")
  ) {
    return ollamaError(400, `"${model.name}" does not support thinking`);
  }
  return chat(state, recorded, chatBody, raw.length);
}

function chat(
  state: State,
  recorded: RecordedRequest,
  body: Record<string, unknown>,
  requestChars: number,
): Response {
  const view = viewOllamaChat(body);
  const problems = checkRequest(view, state.ledger, { allowForeignIds: false });
  const turn = state.script[state.next];
  if (turn === undefined) {
    return fail(state, recorded, 500, [
      ...problems,
      `The script is exhausted: chat request ${state.next + 1} arrived after all turns`,
    ]);
  }
  problems.push(...checkExpect(view, turn.expect));
  if (problems.length > 0) return fail(state, recorded, 400, problems);
  recorded.turn = state.next++;
  if (turn.error) {
    const text = typeof turn.error.body?.error === "string" ? turn.error.body.error : "scripted";
    return ollamaError(turn.error.status, text);
  }
  const plan = planReply(turn.reply!, {
    wire: "chat",
    model: String(body.model),
    ids: state.ids,
    requestChars,
    chunkSize: state.opts.chunkSize ?? 8,
  });
  recordIssued(state.ledger, plan);
  return ndjsonResponse(chatLines(plan));
}

/** The NDJSON lines of a streamed reply: thinking, text, the tool calls, then `done`. */
function chatLines(plan: ReplyPlan): unknown[] {
  const at = new Date(plan.created * 1000).toISOString();
  const line = (message: Record<string, unknown>) => ({
    model: plan.model,
    created_at: at,
    message: { role: "assistant", content: "", ...message },
    done: false,
  });
  const lines: unknown[] = [];
  for (const piece of chunks(plan.thinking?.text ?? "", plan.chunkSize)) {
    lines.push(line({ thinking: piece }));
  }
  for (const piece of chunks(plan.text ?? "", plan.chunkSize)) lines.push(line({ content: piece }));
  if (plan.calls.length > 0) {
    lines.push(line({
      tool_calls: plan.calls.map((call, index) => ({
        id: call.id,
        function: { index, name: call.name, arguments: call.args },
      })),
    }));
  }
  lines.push({
    ...line({}),
    done: true,
    done_reason: plan.stop === "max_tokens" ? "length" : "stop",
    prompt_eval_count: plan.usage.input,
    eval_count: plan.usage.output,
  });
  return lines;
}

function ndjsonResponse(lines: unknown[]): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= lines.length) controller.close();
      else controller.enqueue(encoder.encode(JSON.stringify(lines[next++]) + "\n"));
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}

function findModel(state: State, name: unknown): FakeOllamaModel | undefined {
  if (typeof name !== "string") return undefined;
  const full = name.includes(":") ? name : `${name}:latest`;
  return state.opts.models.find((m) => m.name === name || m.name === full);
}

function capabilitiesOf(model: FakeOllamaModel): string[] | undefined {
  return model.capabilities === null ? undefined : model.capabilities ?? ["completion", "tools"];
}

function tagOf(model: FakeOllamaModel) {
  return {
    name: model.name,
    model: model.name,
    modified_at: "2026-01-01T00:00:00Z",
    size: 1000,
    digest: "0".repeat(64),
    details: detailsOf(model),
  };
}

function architectureOf(model: FakeOllamaModel): string {
  return model.architecture ?? /^[a-z]+\d*/i.exec(model.name)?.[0] ?? "llama";
}

/** `details` as `/api/tags` and `/api/show` give it. */
function detailsOf(model: FakeOllamaModel) {
  const family = model.family ?? architectureOf(model);
  return {
    format: "gguf",
    family,
    families: [family],
    ...(model.parameterSize ? { parameter_size: model.parameterSize } : {}),
  };
}

/** `/api/show` with a KV layout of 36 layers, 8 KV heads and 128-wide keys and values. */
function showOf(model: FakeOllamaModel) {
  const arch = architectureOf(model);
  const capabilities = capabilitiesOf(model);
  return {
    parameters: model.parameters ?? "temperature 0.6",
    template: "{{ .Prompt }}",
    details: detailsOf(model),
    model_info: {
      "general.architecture": arch,
      [`${arch}.context_length`]: model.contextLength ?? 40_960,
      [`${arch}.block_count`]: 36,
      [`${arch}.attention.head_count`]: 32,
      [`${arch}.attention.head_count_kv`]: 8,
      [`${arch}.attention.key_length`]: 128,
      [`${arch}.attention.value_length`]: 128,
    },
    ...(capabilities ? { capabilities } : {}),
    modified_at: "2026-01-01T00:00:00Z",
  };
}

function ollamaError(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

function fail(state: State, recorded: RecordedRequest, status: number, problems: string[]) {
  state.failures.push({
    request: state.requests.indexOf(recorded),
    path: recorded.path,
    problems,
    body: recorded.body,
  });
  return ollamaError(status, `Fake Ollama: ${problems.join("; ")}`);
}

function parseJson(raw: string): unknown {
  try {
    return raw === "" ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}
