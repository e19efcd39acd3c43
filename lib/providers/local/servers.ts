/**
 * The local model servers `--oss` knows, as data: how each is started, and how to tell from a
 * few fast requests that one is running at a base URL. `findRunning()` asks all of them at once.
 * The order is the order `--oss` prefers them in when several run.
 */
import { rec, str } from "../_blocks.ts";
import { localJson } from "../local_json.ts";
import type { ProviderSettings } from "../types.ts";

/** A local provider id, as `LOCAL_PROVIDERS` in the config schema lists them. */
export type LocalServerId = "ollama" | "lmstudio" | "llamacpp" | "vllm";

/** One kind of local server. */
export interface LocalServer {
  id: LocalServerId;
  name: string;
  /** The port it listens on unless told otherwise. */
  port: number;
  /** The command that starts it on its default port, as hints show it. */
  start: string;
  /** Requests only this kind of server answers: a path, and what its JSON reply must hold. */
  probes: Array<{ path: string; answers(body: unknown): boolean }>;
}

/** Sent to `llama-server`: `--jinja` applies the model's chat template, which tool calls need. */
const LLAMACPP_START = "llama-server -m MODEL.gguf --port 8080 --jinja -c 65536";
/** Sent to vLLM: the tool-call flags, without which calls arrive as text. */
const VLLM_START =
  "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser PARSER --max-model-len 65536";

const listOf = (body: unknown, key: string) => {
  const list = rec(body)[key];
  return Array.isArray(list) ? list.map(rec) : undefined;
};

/** Every local server, in `--oss`'s order of preference. */
export const LOCAL_SERVERS: readonly LocalServer[] = [
  {
    id: "ollama",
    port: 11434,
    name: "Ollama",
    start: "ollama serve",
    probes: [{ path: "/api/version", answers: (body) => str(rec(body).version) !== undefined }],
  },
  {
    id: "lmstudio",
    port: 1234,
    name: "LM Studio",
    start: "lms server start",
    probes: [
      { path: "/api/v1/models", answers: (body) => listOf(body, "models") !== undefined },
      { path: "/api/v0/models", answers: (body) => listOf(body, "data") !== undefined },
    ],
  },
  {
    id: "llamacpp",
    port: 8080,
    name: "llama.cpp",
    start: LLAMACPP_START,
    probes: [
      // `/props` is llama-server's own; `/v1/models` stays open when --api-key guards the rest.
      { path: "/props", answers: (body) => "default_generation_settings" in rec(body) },
      {
        path: "/v1/models",
        answers: (body) => !!listOf(body, "data")?.some((m) => m.owned_by === "llamacpp"),
      },
    ],
  },
  {
    id: "vllm",
    port: 8000,
    name: "vLLM",
    start: VLLM_START,
    probes: [
      {
        path: "/v1/models",
        answers: (body) => !!listOf(body, "data")?.some((m) => m.owned_by === "vllm"),
      },
      // vLLM's `/version` is outside the `/v1` that --api-key guards.
      { path: "/version", answers: (body) => str(rec(body).version) !== undefined },
    ],
  },
];

/** The server of `id`. */
export function localServer(id: LocalServerId): LocalServer {
  return LOCAL_SERVERS.find((s) => s.id === id)!;
}

/** The server root of a base URL: `http://host:8080/v1` → `http://host:8080`. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** The key a local server was started with (`--api-key`), as a bearer token; else nothing. */
export function bearer(settings: Pick<ProviderSettings, "apiKey">): Record<string, string> {
  return settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {};
}

/** `start` with the port of `root` when it is not the server's default one. */
export function startCommand(server: LocalServer, root: string): string {
  const url = new URL(root);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (port === String(server.port)) return server.start;
  return /--port \d+/.test(server.start)
    ? server.start.replace(/--port \d+/, `--port ${port}`)
    : `${server.start} --port ${port}`;
}

/** A count a server reports, or undefined when it reports none. */
export function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Where `--oss` looks for one local server. */
export interface LocalCandidate {
  id: LocalServerId;
  baseUrl: string;
}

/** A local server found running. */
export interface RunningServer extends LocalCandidate {
  name: string;
  root: string;
}

/** How long a probe waits: a local server answers these at once. */
const PROBE_TIMEOUT_MS = 1500;

/**
 * The candidates whose server answers like its kind, in the order given. Every probe runs at
 * once, each bounded by `timeoutMs`, so the whole search takes at most that long.
 */
export async function findRunning(
  candidates: LocalCandidate[],
  opts: { timeoutMs?: number } = {},
): Promise<RunningServer[]> {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const found = await Promise.all(candidates.map(async (candidate) => {
    const server = localServer(candidate.id);
    const root = serverRoot(candidate.baseUrl);
    const answers = await Promise.all(
      server.probes.map((probe) =>
        localJson(`${root}${probe.path}`, { timeoutMs }).then(probe.answers, () => false)
      ),
    );
    return answers.includes(true) ? { ...candidate, name: server.name, root } : undefined;
  }));
  return found.filter((s): s is RunningServer => s !== undefined);
}
