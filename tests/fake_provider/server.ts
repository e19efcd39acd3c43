/**
 * A scripted model provider on 127.0.0.1 for tests. It speaks OpenAI Chat Completions
 * (`POST /v1/chat/completions`), OpenAI Responses (`POST /v1/responses`), Anthropic Messages
 * (`POST /v1/messages`) and Gemini (`POST /v1beta/models/<model>:streamGenerateContent`, or
 * `:generateContent`; `/v1/models/...` too), streamed or not. Each request consumes one script turn, rendered into
 * the wire format the request's path asks for. With the `routes` option, requests are instead
 * served statelessly by model and tools, for conversations in parallel (see `routes.ts`).
 *
 * Every request is checked first (see `invariants.ts`). A request that breaks an invariant or
 * the turn's `expect` is recorded in `failures` with its body and answered with HTTP 400; a
 * request past the end of the script is recorded and answered with HTTP 500. Both carry
 * `x-should-retry: false` so SDK clients fail at once instead of retrying.
 */
import { checkExpect, checkRequest, type Ledger, newLedger, recordIssued } from "./invariants.ts";
import { type IdCounters, planReply, type ReplyPlan, type Wire } from "./plan.ts";
import { chatJson, chatStreamFrames } from "./render_chat.ts";
import { geminiJson, geminiStreamFrames } from "./render_gemini.ts";
import { messagesJson, messagesStreamFrames } from "./render_messages.ts";
import { responsesJson, responsesStreamFrames } from "./render_responses.ts";
import { viewRequest } from "./request_view.ts";
import { type FakeRoute, routeSource, scriptSource, type TurnSource } from "./routes.ts";
import type { ScriptError, ScriptTurn } from "./script.ts";
import { sseResponse } from "./sse.ts";
import { isObject } from "./tool_shapes.ts";

export { loadScript, parseScript, type ScriptTurn } from "./script.ts";

/** Tuning for `startFakeProvider`. */
export interface FakeProviderOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Code points per text, reasoning or argument delta. Default 8. */
  chunkSize?: number;
  /** Pause between streamed frames, for cancellation tests. Default 0. */
  chunkDelayMs?: number;
  /** Accept tool calls and reasoning in request histories that this server never issued. */
  allowForeignIds?: boolean;
  /** Accept issued tool calls re-expressed for another harness (see `CheckOptions`). */
  allowTranslatedCalls?: boolean;
  /** Chat delta and message field that carries reasoning. Default `reasoning_content`. */
  chatReasoningField?: string;
  /**
   * The one key the server takes (as `Authorization: Bearer` or `x-api-key`); any other request
   * is answered 401, as a provider refuses a wrong key, without consuming a turn. Default: any.
   */
  apiKey?: string;
  /** What `GET /v1/models` lists. Default: the routes' models, else `["fake-model"]`. */
  models?: string[];
  /**
   * Serve these routes instead of the script (which must then be empty): each request gets the
   * turn of the first route matching its model and tools that its count of assistant turns
   * points at. A request no route matches is a failure answered 400; one past its route's script
   * is answered 500. `remaining()` then counts route turns no request has reached.
   */
  routes?: FakeRoute[];
}

/** A request as received. */
export interface RecordedRequest {
  method: string;
  /** URL path, e.g. `/v1/messages`. */
  path: string;
  /** Header names are lower case. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /**
   * Index of the script turn the request consumed (in its route's script, with routes), or null
   * when it consumed none.
   */
  turn: number | null;
  /** Index of the route that served the request, with the `routes` option. */
  route?: number;
  /** `performance.now()` when the request arrived, for benchmarks that time round trips. */
  receivedAt?: number;
}

/** A request that broke an invariant, an `expect`, or ran past the end of the script. */
export interface Failure {
  /** Index into `requests`. */
  request: number;
  path: string;
  problems: string[];
  body: unknown;
}

/** A running fake provider. */
export interface FakeProvider extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/v1`, the base URL for OpenAI clients. */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT`, the base URL for Anthropic clients (they append `/v1/messages`). */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  readonly failures: Failure[];
  /** Script turns not yet consumed; with routes, route turns no request has reached. */
  remaining(): number;
  close(): Promise<void>;
}

const WIRES: Record<string, Wire> = {
  "/v1/chat/completions": "chat",
  "/v1/responses": "responses",
  "/v1/messages": "messages",
};

/** Gemini's paths: the model, and `streamGenerateContent` or `generateContent`. */
const GEMINI_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/** The `error.status` Gemini sends with each HTTP status. */
const GEMINI_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

interface State {
  source: TurnSource;
  ids: IdCounters;
  ledger: Ledger;
  requests: RecordedRequest[];
  failures: Failure[];
  opts: Required<Omit<FakeProviderOptions, "port" | "apiKey" | "routes">> & { apiKey?: string };
}

/**
 * Starts serving `script` (or `opts.routes`, with an empty script) on 127.0.0.1; close it with
 * `close()` or `await using`.
 */
export function startFakeProvider(
  script: ScriptTurn[],
  opts: FakeProviderOptions = {},
): FakeProvider {
  if (opts.chunkSize !== undefined && !(Number.isInteger(opts.chunkSize) && opts.chunkSize > 0)) {
    throw new RangeError(`Cannot use chunkSize ${opts.chunkSize}: expected a positive integer`);
  }
  if (opts.routes !== undefined && script.length > 0) {
    throw new RangeError("Cannot serve both a script and routes: pass [] as the script");
  }
  const source = opts.routes === undefined ? scriptSource(script) : routeSource(opts.routes);
  const state: State = {
    source,
    ids: new Map(),
    ledger: newLedger(),
    requests: [],
    failures: [],
    opts: {
      chunkSize: opts.chunkSize ?? 8,
      chunkDelayMs: opts.chunkDelayMs ?? 0,
      allowForeignIds: opts.allowForeignIds ?? false,
      allowTranslatedCalls: opts.allowTranslatedCalls ?? false,
      chatReasoningField: opts.chatReasoningField ?? "reasoning_content",
      apiKey: opts.apiKey,
      models: opts.models ?? source.models(),
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: opts.port ?? 0, onListen() {} },
    (request) => handle(request, state).catch((error) => crashed(error, state)),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  const close = () => closing ??= server.shutdown();
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests: state.requests,
    failures: state.failures,
    remaining: () => state.source.remaining(),
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function handle(request: Request, state: State): Promise<Response> {
  const receivedAt = performance.now();
  const path = new URL(request.url).pathname;
  const raw = await request.text();
  const parsed = parseJson(raw);
  const recorded: RecordedRequest = {
    method: request.method,
    path,
    headers: Object.fromEntries(request.headers),
    body: parsed.ok ? parsed.value : raw,
    turn: null,
    receivedAt,
  };
  state.requests.push(recorded);
  const gemini = GEMINI_PATH.exec(path);
  const wire: Wire | undefined = gemini ? "gemini" : WIRES[path];
  const fail = (status: number, problems: string[]) => {
    const index = state.requests.indexOf(recorded);
    state.failures.push({ request: index, path, problems, body: recorded.body });
    const message = `Fake provider: ${problems.join("; ")}`;
    return errorResponse(wire ?? "chat", status, message, { "x-should-retry": "false" });
  };
  if (!keyTaken(request.headers, state.opts.apiKey)) {
    return errorResponse(wire ?? "chat", 401, "Incorrect API key provided", {
      "x-should-retry": "false",
    });
  }
  if (request.method === "GET" && path === "/v1beta/models") {
    const models = state.opts.models.map((id) => ({ name: `models/${id}`, displayName: id }));
    return Response.json({ models });
  }
  if (request.method === "GET" && path === "/v1/models") {
    const data = state.opts.models.map((id) => ({ id, object: "model", owned_by: "fake" }));
    return Response.json({ object: "list", data });
  }
  if (request.method !== "POST" || wire === undefined) {
    return fail(404, [`No route for ${request.method} ${path}`]);
  }
  if (!parsed.ok) return fail(400, [`The request body is not JSON: ${parsed.error}`]);
  const geminiModel = gemini ? decodeURIComponent(gemini[1]) : undefined;
  const view = viewRequest(wire, parsed.value, request.headers, geminiModel);
  const problems = checkRequest(view, state.ledger, state.opts);
  const picked = state.source.pick(view, state.requests.length);
  if ("problem" in picked) return fail(picked.status, [...problems, picked.problem]);
  const turn = picked.turn;
  problems.push(...checkExpect(view, turn.expect));
  if (problems.length > 0) return fail(400, problems);
  recorded.turn = picked.index;
  if (picked.route !== undefined) recorded.route = picked.route;
  if (turn.error) {
    picked.commit();
    return scriptedError(wire, turn.error);
  }
  const plan = planReply(turn.reply!, {
    wire,
    model: view.model as string,
    ids: state.ids,
    requestChars: raw.length,
    chunkSize: state.opts.chunkSize,
  });
  picked.commit(wire === "responses" ? plan.id : undefined);
  recordIssued(state.ledger, plan);
  if (gemini) {
    return gemini[2] === "generateContent"
      ? Response.json(geminiJson(plan))
      : sseResponse(geminiStreamFrames(plan), state.opts.chunkDelayMs);
  }
  return render(plan, parsed.value as Record<string, unknown>, state);
}

function keyTaken(headers: Headers, key: string | undefined): boolean {
  if (key === undefined) return true;
  return headers.get("authorization") === `Bearer ${key}` || headers.get("x-api-key") === key ||
    headers.get("x-goog-api-key") === key;
}

/** A bug in the fake itself still fails the test that met it. */
function crashed(error: unknown, state: State): Response {
  const last = state.requests.at(-1);
  const problem = `The fake provider crashed: ${(error as Error)?.stack ?? error}`;
  state.failures.push({
    request: state.requests.length - 1,
    path: last?.path ?? "",
    problems: [problem],
    body: last?.body,
  });
  return Response.json({ error: { message: problem, type: "api_error" } }, {
    status: 500,
    headers: { "x-should-retry": "false" },
  });
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function render(plan: ReplyPlan, body: Record<string, unknown>, state: State): Response {
  const chatOpts = {
    includeUsage: isObject(body.stream_options) && body.stream_options.include_usage === true,
    reasoningField: state.opts.chatReasoningField,
  };
  if (body.stream !== true) {
    const json = plan.wire === "chat"
      ? chatJson(plan, chatOpts)
      : plan.wire === "responses"
      ? responsesJson(plan)
      : messagesJson(plan);
    return Response.json(json);
  }
  const frames = plan.wire === "chat"
    ? chatStreamFrames(plan, chatOpts)
    : plan.wire === "responses"
    ? responsesStreamFrames(plan)
    : messagesStreamFrames(plan);
  return sseResponse(frames, state.opts.chunkDelayMs);
}

function scriptedError(wire: Wire, error: ScriptError): Response {
  const message = `Scripted error ${error.status} from the fake provider`;
  const headers = { "retry-after": "0", ...error.headers };
  if (error.body === undefined) return errorResponse(wire, error.status, message, headers);
  return Response.json(error.body, { status: error.status, headers });
}

function errorResponse(
  wire: Wire,
  status: number,
  message: string,
  headers: Record<string, string>,
): Response {
  const type = status === 429
    ? "rate_limit_error"
    : status === 529
    ? "overloaded_error"
    : status >= 500
    ? "api_error"
    : "invalid_request_error";
  const body = wire === "messages"
    ? { type: "error", error: { type, message } }
    : wire === "gemini"
    ? { error: { code: status, message, status: GEMINI_STATUS[status] ?? "UNKNOWN" } }
    : { error: { message, type, param: null, code: null } };
  return Response.json(body, { status, headers });
}
