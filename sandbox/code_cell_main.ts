/**
 * The program one code-mode cell runs in: a fresh Deno process without permissions, inside the
 * session's command sandbox (lib/tools/code_mode/cell.ts starts it). It reads the source and the
 * nested tool names as the first JSON line on stdin, runs the source as the body of an async
 * function, and speaks JSON lines: it sends `text`, `call`, `yield` and one `done`; it reads the
 * answers to its calls. It imports nothing, so it starts fast and reaches nothing but its pipe.
 */

type Json = Record<string, unknown>;

interface Start {
  source: string;
  /** JavaScript name → tool name. */
  tools: Record<string, string>;
  descriptions: Record<string, string>;
  stored: Record<string, unknown>;
}

/** Thrown by `exit()`: ends the source early, successfully. */
const EXIT = Symbol("exit");

/** Serves one cell on stdin/stdout, then exits the process. */
export async function serveCell(): Promise<never> {
  const encoder = new TextEncoder();
  const stdout = Deno.stdout;
  const send = (message: Json) => stdout.writeSync(encoder.encode(JSON.stringify(message) + "\n"));
  const lines = readLines(Deno.stdin.readable);
  const first = await lines.next();
  const start = JSON.parse(first.value ?? "{}") as Start;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  (async () => {
    for await (const line of lines) answer(JSON.parse(line) as Json, pending);
  })();
  // A compiled binary runs with the permissions baked into it: give them all up first.
  for (const name of ["read", "write", "net", "env", "run", "ffi", "sys", "import"] as const) {
    await Deno.permissions.revoke({ name }).catch(() => {});
  }
  const stored = { ...start.stored };
  installGlobals(start, send, pending, stored);
  // The runtime stays reachable (Node's modules need it), but the process holds no permission:
  // every file, network, environment and process API refuses, and a line the source writes to
  // stdout itself can at most ask for a nested call, which is checked like any other.
  let error: string | undefined;
  try {
    const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
    await new AsyncFunction(start.source)();
  } catch (err) {
    if (err !== EXIT) error = describe(err);
  }
  send({ t: "done", ...(error === undefined ? {} : { error }), stored });
  // Timers and promises the source left behind end with the process, as they do in Codex.
  return exitNow();
}

function exitNow(): never {
  return Deno.exit(0);
}

function answer(
  message: Json,
  pending: Map<number, { resolve(v: unknown): void; reject(e: Error): void }>,
) {
  const waiter = pending.get(Number(message.id));
  if (!waiter) return;
  pending.delete(Number(message.id));
  if (message.ok) waiter.resolve(message.value);
  else waiter.reject(new Error(String(message.error)));
}

function installGlobals(
  start: Start,
  send: (message: Json) => void,
  pending: Map<number, { resolve(v: unknown): void; reject(e: Error): void }>,
  stored: Record<string, unknown>,
): void {
  let next = 0;
  const call = (name: string, input: unknown) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      send({ t: "call", id, name, input: input === undefined ? null : input });
    });
  const tools: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const [js, name] of Object.entries(start.tools)) tools[js] = (input) => call(name, input);
  const text = (value: unknown) => send({ t: "text", text: stringify(value) });
  const g = globalThis as unknown as Json;
  g.tools = Object.freeze(tools);
  g.ALL_TOOLS = Object.freeze(
    Object.entries(start.tools).map(([js, name]) => ({
      name: js,
      tool: name,
      description: start.descriptions[name] ?? "",
    })),
  );
  g.text = text;
  g.notify = text;
  g.exit = () => {
    throw EXIT;
  };
  g.yield_control = () => send({ t: "yield" });
  g.store = (key: string, value: unknown) => {
    stored[String(key)] = JSON.parse(JSON.stringify(value ?? null));
  };
  g.load = (key: string) => stored[String(key)];
  g.image = () => {
    throw new Error("image() is not available in this session's exec");
  };
  const log = (...values: unknown[]) => text(values.map(stringify).join(" "));
  // The console writes to stdout, the pipe: its methods emit parts instead.
  Object.assign(console, { log, info: log, warn: log, error: log, debug: log });
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `Uncaught ${stringify(err)}`;
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
    }
  }
}

if (import.meta.main) await serveCell();
