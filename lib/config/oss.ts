/**
 * `--oss` with no local provider chosen (no `--local-provider`, no `oss_provider`): the servers
 * that run decide. Each is looked for where its provider would send requests (its default port
 * unless `base_url`, `OLLAMA_HOST` or `OPENINTERPRETER_OSS_BASE_URL` moves it), all at once and
 * briefly. One running is used; of several, the user picks on a terminal, else the first in
 * `LOCAL_PROVIDERS` order is used and a warning says so; none is an error naming how to start each.
 */
import { UsageError, UserError } from "../errors.ts";
import { builtinProvider } from "../providers/builtin.ts";
import {
  findRunning,
  type LocalCandidate,
  localServer,
  type RunningServer,
  serverRoot,
} from "../providers/local/servers.ts";
import { isTable } from "./_keypath.ts";
import { type MergeState, valueAt } from "./effective.ts";
import { providerBaseUrl } from "./provider.ts";
import { LOCAL_PROVIDERS, type LocalProvider } from "./schema.ts";

export type { RunningServer };

/** Asks which of several running servers `--oss` uses; undefined takes the first. */
export type LocalServerChooser = (running: RunningServer[]) => Promise<RunningServer | undefined>;

/** What the search needs besides the servers themselves. */
export interface DiscoverOptions {
  env: Record<string, string | undefined>;
  /** The `base_url` of each `[model_providers.<id>]` entry that sets one, by provider id. */
  baseUrls: Record<string, string | undefined>;
  /** Asks the user; default: a numbered prompt when stdin and stderr are a free terminal. */
  choose?: LocalServerChooser;
  warn(message: string): void;
  /** Bound of each probe (default 1.5 s). */
  timeoutMs?: number;
}

/** The flags that select a local provider. */
export interface LocalFlags {
  oss?: boolean;
  local_provider?: string;
  model_provider?: string;
}

/**
 * The local provider `--oss` or `--local-provider` selects, with the flag that selected it:
 * `--local-provider`, else a local provider given as `model_provider` by flag (`/new` keeps the one
 * in use), else `oss_provider`, else the one found running.
 */
export async function localProvider(
  state: MergeState,
  opts: { flags: LocalFlags } & Omit<DiscoverOptions, "baseUrls">,
): Promise<{ id: string; flag: string } | undefined> {
  const { flags } = opts;
  if (!flags.oss && flags.local_provider === undefined) return undefined;
  const isLocal = (id: unknown) => (LOCAL_PROVIDERS as readonly unknown[]).includes(id);
  const provider = flags.model_provider;
  if (provider !== undefined && !isLocal(provider)) {
    throw new UsageError(
      `Cannot use --oss with provider "${provider}": --oss selects a local provider`,
      { hint: "Drop --oss to use another provider, or drop the provider flag" },
    );
  }
  const id = flags.local_provider ?? provider ?? valueAt(state.values, ["oss_provider"]) ??
    await discoverLocalProvider({ ...opts, baseUrls: entryBaseUrls(state) });
  if (!isLocal(id)) {
    const allowed = LOCAL_PROVIDERS.map((p) => `"${p}"`).join(", ");
    throw new UsageError(`Invalid value "${id}" for --local-provider: expected one of ${allowed}`, {
      hint: `Pass --local-provider with one of ${LOCAL_PROVIDERS.join(", ")}`,
    });
  }
  if (provider !== undefined && provider !== id) {
    throw new UsageError(
      `Cannot use --local-provider ${id} with provider "${provider}"`,
      { hint: "Drop one of the two flags" },
    );
  }
  return {
    id: id as string,
    flag: flags.local_provider !== undefined ? "--local-provider" : "--oss",
  };
}

/** The `base_url` of each `[model_providers.<id>]` entry merged so far, by id. */
function entryBaseUrls(state: MergeState): Record<string, string | undefined> {
  const entries = valueAt(state.values, ["model_providers"]);
  const out: Record<string, string | undefined> = {};
  for (const [id, entry] of Object.entries(isTable(entries) ? entries : {})) {
    const url = isTable(entry) ? entry.base_url : undefined;
    if (typeof url === "string") out[id] = url;
  }
  return out;
}

/** The local provider `--oss` uses; see the module comment. */
async function discoverLocalProvider(opts: DiscoverOptions): Promise<LocalProvider> {
  const candidates: LocalCandidate[] = LOCAL_PROVIDERS.map((id) => ({
    id,
    baseUrl: providerBaseUrl(id, {
      builtin: builtinProvider(id),
      entryBaseUrl: opts.baseUrls[id],
      env: opts.env,
    })!,
  }));
  const running = await findRunning(candidates, { timeoutMs: opts.timeoutMs });
  if (running.length === 0) throw noneRunning(candidates);
  if (running.length === 1) return running[0].id;
  const choose = opts.choose ?? terminalChooser();
  const chosen = choose ? await choose(running) : undefined;
  if (chosen) return chosen.id;
  const order = LOCAL_PROVIDERS.map((id) => localServer(id).name).join(", ");
  opts.warn(
    `--oss found ${running.length} local model servers running (${where(running)}); using ` +
      `${running[0].name}, the first in the order ${order}. Pass --local-provider ` +
      `${running[1].id} (or set oss_provider) to use another`,
  );
  return running[0].id;
}

/** How the numbered prompt reads and writes. */
export interface PromptIO {
  write(text: string): Promise<void>;
  /** One line, or null at end of input. */
  readLine(): Promise<string | null>;
}

/** Asks for one of `running` by number (Enter takes the first); undefined at end of input. */
export async function askLocalServer(
  running: RunningServer[],
  io: PromptIO,
): Promise<RunningServer | undefined> {
  const lines = running.map((s, i) => `  ${i + 1}) ${s.name} at ${s.root}`);
  await io.write(`Several local model servers are running:\n${lines.join("\n")}\n`);
  let question = `Use which one for --oss? [1] `;
  for (let attempt = 0; attempt < 3; attempt++) {
    await io.write(question);
    const line = await io.readLine();
    if (line === null) return undefined;
    const text = line.trim().toLowerCase();
    if (text === "") return running[0];
    const picked = running[Number(text) - 1] ??
      running.find((s) => s.id === text || s.name.toLowerCase() === text);
    if (picked) return picked;
    question = `Type a number from 1 to ${running.length}: `;
  }
  return undefined;
}

/**
 * The numbered prompt on this process's terminal, or undefined when stdin or stderr is not a
 * terminal or a front end already reads stdin (the REPL's input is open before its session).
 */
function terminalChooser(): LocalServerChooser | undefined {
  if (!Deno.stdin.isTerminal() || !Deno.stderr.isTerminal() || stdinInUse()) return undefined;
  const encoder = new TextEncoder();
  const io: PromptIO = {
    write: async (text) => {
      await Deno.stderr.write(encoder.encode(text));
    },
    readLine: async () => {
      const buffer = new Uint8Array(1024);
      const n = await Deno.stdin.read(buffer);
      return n === null ? null : new TextDecoder().decode(buffer.subarray(0, n));
    },
  };
  return (running) => askLocalServer(running, io);
}

/** Whether stdin is already being read: a stream reader, or raw mode for a line editor. */
function stdinInUse(): boolean {
  return Deno.stdin.readable.locked ||
    (globalThis as { process?: { stdin?: { isRaw?: boolean } } }).process?.stdin?.isRaw === true;
}

function where(running: RunningServer[]): string {
  return running.map((s) => `${s.name} at ${s.root}`).join(", ");
}

function noneRunning(candidates: LocalCandidate[]): UserError {
  const looked = candidates.map((c) => `${localServer(c.id).name} at ${serverRoot(c.baseUrl)}`)
    .join(", ");
  const starts = candidates.map((c) => `"${localServer(c.id).start}"`);
  return new UserError(`--oss found no local model server running: looked for ${looked}`, {
    hint: `Start one (${starts.slice(0, -1).join(", ")} or ${starts.at(-1)}), or pass ` +
      "--local-provider to name the one you run elsewhere",
  });
}
