/**
 * The first run's "another OpenAI-compatible endpoint": its base URL, model and the variable of
 * its key (if it takes one), asked one at a time, then written as a `[model_providers.ID]` table.
 */
import { isBuiltinProviderId } from "../../config/provider_setup.ts";

/** An endpoint the user described. */
export interface Endpoint {
  /** The `[model_providers.ID]` id: the host's name, made unique. */
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  envKey?: string;
}

/** How the questions are asked. */
export interface EndpointIO {
  print(text: string): void;
  /** One line of input; undefined at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Asks for the endpoint; undefined when the user skipped (Enter at the base URL or the model).
 * `taken` are the provider ids the config already defines.
 */
export async function askEndpoint(
  io: EndpointIO,
  taken: ReadonlySet<string>,
): Promise<Endpoint | undefined> {
  const baseUrl = await askUntil(
    io,
    { prompt: "Base URL, with its version path (e.g. http://localhost:8000/v1): ", enter: "skip" },
    (text) => httpUrl(text) ? undefined : `"${text}" is not an http:// or https:// URL`,
  );
  if (!baseUrl) return undefined;
  const model = (await io.readLine("Model: "))?.trim();
  if (!model) return undefined;
  const envKey = await askUntil(
    io,
    { prompt: "Environment variable of its key (Enter if it takes none): ", enter: "say none" },
    (text) => ENV_NAME.test(text) ? undefined : `"${text}" is not a variable name (A-Z, 0-9, _)`,
  );
  const url = httpUrl(baseUrl)!;
  return {
    id: uniqueId(url.hostname, taken),
    name: url.host,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    model,
    ...(envKey ? { envKey } : {}),
  };
}

/** The endpoint as a `[model_providers.ID]` table. */
export function endpointTable(endpoint: Endpoint): string {
  const lines = [
    `[model_providers.${endpoint.id}]`,
    `name = ${JSON.stringify(endpoint.name)}`,
    `base_url = ${JSON.stringify(endpoint.baseUrl)}`,
    `wire_api = "chat"`,
    ...(endpoint.envKey ? [`env_key = ${JSON.stringify(endpoint.envKey)}`] : []),
  ];
  return lines.join("\n") + "\n";
}

/** The provider ids a config text defines as `[model_providers.ID]` tables (a close reading). */
export function definedProviderIds(configText: string): Set<string> {
  const ids = new Set<string>();
  const header = /^\s*\[\s*model_providers\s*\.\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))/gm;
  for (const match of configText.matchAll(header)) ids.add(match[1] ?? match[2] ?? match[3]);
  return ids;
}

/** A bare TOML key from the host's name, not a built-in id nor one already defined. */
function uniqueId(hostname: string, taken: ReadonlySet<string>): string {
  const base = hostname.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") ||
    "custom";
  const used = (id: string) => taken.has(id) || isBuiltinProviderId(id);
  let id = base;
  for (let n = 2; used(id); n++) id = `${base}-${n}`;
  return id;
}

/** Asks until the answer is empty (returned as "") or `problem` finds nothing wrong with it. */
async function askUntil(
  io: EndpointIO,
  question: { prompt: string; enter: string },
  problem: (text: string) => string | undefined,
): Promise<string> {
  while (true) {
    const text = (await io.readLine(question.prompt))?.trim() ?? "";
    const wrong = text ? problem(text) : undefined;
    if (!wrong) return text;
    io.print(`${wrong}; try again, or press Enter to ${question.enter}`);
  }
}

function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
