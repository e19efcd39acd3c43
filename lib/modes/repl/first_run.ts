/**
 * The REPL's first run: with no provider configured and no key for the default one, a short
 * guided choice (every built-in hosted provider, a local Ollama or LM Studio found on its
 * default port, or another OpenAI-compatible endpoint) is written to `config.toml`. The key, when
 * the choice needs one, is asked for next (key_setup.ts). Never in `exec`.
 */
import { addTopLevelKeys, configFile, hostedProviders } from "../../config/provider_setup.ts";
import { readInputText } from "../../input_file.ts";
import { askEndpoint, definedProviderIds, endpointTable } from "./custom_endpoint.ts";

/** How the guide talks to the user. */
export interface FirstRunIO {
  print(text: string): void;
  /** One line of input; undefined at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
}

/** Options of `runFirstRun`. */
export interface FirstRunOptions {
  /** Where provider keys are looked for, to mark the providers that have one. */
  env?: Record<string, string | undefined>;
  /** Finds the local servers' models; injectable for tests. */
  probe?: (url: string) => Promise<string[] | undefined>;
}

/** A choice the guide offers: a provider and model to write, or the custom endpoint's questions. */
type Choice =
  & { label: string }
  & (
    | { kind: "provider"; provider: string; model: string }
    | { kind: "endpoint" }
  );

const LOCAL_SERVERS = [
  { provider: "ollama", url: "http://127.0.0.1:11434/api/tags", label: "Ollama" },
  { provider: "lmstudio", url: "http://127.0.0.1:1234/v1/models", label: "LM Studio" },
];

/**
 * Offers the choices and writes the chosen one; returns what was written, or undefined when the
 * user skipped.
 */
export async function runFirstRun(
  home: string,
  io: FirstRunIO,
  opts: FirstRunOptions = {},
): Promise<{ provider: string; model: string } | undefined> {
  const choices = await firstRunChoices(home, opts);
  io.print("No model provider is set up yet. Choose one (Enter skips):");
  choices.forEach((c, i) => io.print(`  ${i + 1}) ${c.label}`));
  const file = configFile(home);
  const skipped = () => {
    io.print(`Skipped. Set model_provider and model in ${file}, or run with --oss.`);
    return undefined;
  };
  const choice = await pick(io, choices);
  if (!choice) return skipped();
  if (choice.kind === "provider") {
    await addTopLevelKeys(file, { model_provider: choice.provider, model: choice.model });
    io.print(
      `Wrote model_provider = "${choice.provider}" and model = "${choice.model}" to ${file}`,
    );
    return { provider: choice.provider, model: choice.model };
  }
  const existing = await readInputText(file, { what: "config file" }).catch(() => "");
  const endpoint = await askEndpoint(io, definedProviderIds(existing));
  if (!endpoint) return skipped();
  const keys = { model_provider: endpoint.id, model: endpoint.model };
  await addTopLevelKeys(file, keys, { table: endpointTable(endpoint) });
  io.print(
    `Wrote model_provider = "${endpoint.id}", model = "${endpoint.model}" and ` +
      `[model_providers.${endpoint.id}] to ${file}`,
  );
  return { provider: endpoint.id, model: endpoint.model };
}

async function firstRunChoices(home: string, opts: FirstRunOptions): Promise<Choice[]> {
  const env = opts.env ?? {};
  const found = await Promise.all(LOCAL_SERVERS.map((s) => (opts.probe ?? probeModels)(s.url)));
  const choices: Choice[] = [];
  LOCAL_SERVERS.forEach((server, i) => {
    const models = found[i];
    if (!models?.length) return;
    choices.push({
      kind: "provider",
      provider: server.provider,
      model: models[0],
      label: `${server.label} on this machine (${models.length} model(s), e.g. ${models[0]})`,
    });
  });
  for (const p of hostedProviders(home, env)) {
    const keySet = p.keySet ? ", key set" : "";
    choices.push({
      kind: "provider",
      provider: p.id,
      model: p.defaultModel,
      label: `${p.name} (${p.defaultModel}${keySet})`,
    });
  }
  choices.push({
    kind: "endpoint",
    label: "Another OpenAI-compatible endpoint (its base URL, model and key variable)",
  });
  return choices;
}

/** The chosen entry; undefined on Enter or at end of input. Another answer is asked again. */
async function pick(io: FirstRunIO, choices: Choice[]): Promise<Choice | undefined> {
  while (true) {
    const answer = (await io.readLine("> "))?.trim() ?? "";
    if (answer === "") return undefined;
    const index = /^\d+$/.test(answer) ? Number(answer) - 1 : -1;
    if (choices[index]) return choices[index];
    io.print(`Type a number from 1 to ${choices.length}, or press Enter to skip`);
  }
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
