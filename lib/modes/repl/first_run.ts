/**
 * The REPL's first run: with no provider configured and no provider key in the environment, a
 * short guided choice (a local Ollama or LM Studio found on its default port, or a hosted
 * provider and the variable that holds its key) is written to `config.toml`. Never in `exec`.
 */
import { join } from "node:path";
import { writeHomeFile } from "../../config/home.ts";
import { InputFileError, readInputText } from "../../input_file.ts";
import { BUILTIN_PROVIDERS } from "../../providers/builtin.ts";

/** How the guide talks to the user. */
export interface FirstRunIO {
  print(text: string): void;
  /** One line of input; undefined at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
}

/** A choice the guide offers. */
interface Choice {
  provider: string;
  model: string;
  label: string;
  /** The environment variable the provider's key must be in, for hosted providers. */
  envKey?: string;
}

const LOCAL_SERVERS = [
  { provider: "ollama", url: "http://127.0.0.1:11434/api/tags", label: "Ollama" },
  { provider: "lmstudio", url: "http://127.0.0.1:1234/v1/models", label: "LM Studio" },
];

/** True when neither the user's config names a provider or model nor any provider key is set. */
export async function needsFirstRun(home: string, env: Record<string, string>): Promise<boolean> {
  if (BUILTIN_PROVIDERS.some((p) => p.envKey && env[p.envKey])) return false;
  const file = join(home, "config.toml");
  const text = await readInputText(file, { what: "config file" }).catch(() => "");
  return !/^\s*(model_provider|model|profile)\s*=/m.test(text);
}

/**
 * Offers the choices and writes the chosen one; returns what was written, or undefined when the
 * user skipped. `probe` finds the local servers' models (injectable for tests).
 */
export async function runFirstRun(
  home: string,
  io: FirstRunIO,
  probe: (url: string) => Promise<string[] | undefined> = probeModels,
): Promise<{ provider: string; model: string } | undefined> {
  const choices: Choice[] = [];
  const found = await Promise.all(LOCAL_SERVERS.map((s) => probe(s.url)));
  LOCAL_SERVERS.forEach((server, i) => {
    const models = found[i];
    if (models?.length) {
      choices.push({
        provider: server.provider,
        model: models[0],
        label: `${server.label} on this machine (${models.length} model(s), e.g. ${models[0]})`,
      });
    }
  });
  for (const p of BUILTIN_PROVIDERS.filter((p) => p.envKey)) {
    choices.push({
      provider: p.id,
      model: p.defaultModel,
      label: `${p.name} (${p.defaultModel}; key in ${p.envKey})`,
      envKey: p.envKey,
    });
  }
  io.print("No model provider is set up yet. Choose one (Enter skips):");
  choices.forEach((c, i) => io.print(`  ${i + 1}) ${c.label}`));
  const answer = (await io.readLine("> "))?.trim() ?? "";
  const index = Number(answer) - 1;
  const choice = Number.isInteger(index) ? choices[index] : undefined;
  if (!choice) {
    io.print("Skipped. Set model_provider and model in config.toml, or run with --oss.");
    return undefined;
  }
  const file = join(home, "config.toml");
  await addTopLevelKeys(file, { model_provider: choice.provider, model: choice.model });
  io.print(`Wrote model_provider = "${choice.provider}" and model = "${choice.model}" to ${file}`);
  if (choice.envKey) io.print(`Set ${choice.envKey} to your key before the next request.`);
  return { provider: choice.provider, model: choice.model };
}

const HEADER = "# interpreter's configuration; every key is described in the README.\n";

/**
 * Puts `keys` at the top level of the TOML file: before its first table, after its leading
 * comments, keeping everything else as it was. Creates the file with a comment header.
 */
export async function addTopLevelKeys(file: string, keys: Record<string, string>): Promise<void> {
  const existing = await readInputText(file, { what: "config file" }).catch((error) => {
    if (error instanceof InputFileError && error.missing) return undefined;
    throw error;
  });
  const lines = Object.entries(keys).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  let text: string;
  if (existing === undefined) {
    text = `${HEADER}\n${lines.join("\n")}\n`;
  } else {
    const all = existing.split("\n");
    let at = 0;
    while (at < all.length && /^\s*(#.*)?$/.test(all[at])) at++;
    all.splice(at, 0, ...lines, ...(at < all.length ? [""] : []));
    text = all.join("\n");
  }
  await writeHomeFile(file, text);
}

/** The model names a local server lists, or undefined when nothing answers there. */
async function probeModels(url: string): Promise<string[] | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(800) });
    if (!response.ok) return undefined;
    const body = await response.json() as {
      models?: Array<{ name?: string }>;
      data?: Array<{ id?: string }>;
    };
    const names = [
      ...(body.models ?? []).map((m) => m.name),
      ...(body.data ?? []).map((m) => m.id),
    ].filter((n): n is string => typeof n === "string");
    return names;
  } catch {
    return undefined;
  }
}
