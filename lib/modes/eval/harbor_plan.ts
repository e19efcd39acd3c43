/**
 * `interpreter eval --harbor-config`: what the Harbor job will run, planned without calling any
 * provider (so no API key is asked for), and the refusals and warnings for what Harbor would not
 * do as asked. Harbor names a model `provider/model`; its containers have no config.toml, so only
 * a built-in provider (or one of LiteLLM's names for it) reaches the model from there.
 */
// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../config/load.ts";
import { UsageError } from "../../errors.ts";
import { BUILTIN_PROVIDERS, builtinProvider } from "../../session/builtin_providers.ts";
import type { WireApi } from "../../providers/types.ts";
import type { EvalArgs } from "./eval_args.ts";
import { harborJobConfig, isFile, providerIdOf } from "./harbor_config.ts";
import { type PlanConfig, type PlannedModel, planPairs, splitList } from "./plan.ts";

/** A model as Harbor will be given it, and what is wrong with it for Harbor, if anything. */
export interface HarborModel {
  planned: PlannedModel;
  /** A warning line and its hint when Harbor's agent cannot reach the model as named. */
  warning?: { message: string; hint: string };
}

/** Refuses what `--harbor-config` cannot carry into a Harbor job, saying why and what to do. */
export function checkHarborArgs(args: EvalArgs): void {
  if (args.task !== undefined) {
    throw new UsageError(
      "--harbor-config cannot carry the task given as an argument: Harbor runs only task " +
        "folders, each in a container built from its own environment",
      {
        hint: "Make a Harbor task folder (task.toml, instruction.md, environment/Dockerfile, " +
          "tests/test.sh) and pass it with --tasks DIR, or run the task here without --harbor-config",
      },
    );
  }
  if (args.check !== undefined) {
    throw new UsageError(
      "--harbor-config cannot carry --check: Harbor's verifier runs each task's tests/test.sh",
      {
        hint: "Put the command in the task's tests/test.sh (writing 1 or 0 to " +
          "/logs/verifier/reward.txt), or run the check here without --harbor-config",
      },
    );
  }
  if (args.tasks !== undefined && !isDirectory(args.tasks)) {
    throw new UsageError(
      `--harbor-config takes Harbor task folders, and "${resolve(args.tasks)}" is not a folder`,
      { hint: "Pass --tasks DIR: a task folder (with task.toml) or a folder of them" },
    );
  }
}

/**
 * The models of `--model a,b` as Harbor names (none: the configured one, written
 * `provider/model`), each with the wire API its provider speaks, from config alone.
 */
export async function harborModels(specs: string[], config: PlanConfig): Promise<HarborModel[]> {
  const effective = await loadConfig({
    cwd: config.cwd,
    env: config.env,
    flags: {},
    overrides: config.overrides,
    profile: config.profile,
  });
  const entries = effective.values.model_providers;
  const wireOf = (id: string): WireApi | undefined =>
    entries[id]?.wire_api ?? builtinProvider(id)?.wireApi;
  if (specs.length === 0) {
    const id = effective.values.model_provider;
    const model = effective.values.model ?? builtinProvider(id)?.defaultModel ?? "";
    specs = [`${id}/${model}`];
  }
  return specs.map((spec) => harborModel(spec, { wireOf, configured: entries }));
}

function harborModel(
  spec: string,
  { wireOf, configured }: {
    wireOf: (id: string) => WireApi | undefined;
    configured: Record<string, unknown>;
  },
): HarborModel {
  const slash = spec.indexOf("/");
  if (slash <= 0 || slash === spec.length - 1) {
    return {
      planned: { spec, provider: "openai", wireApi: "responses" },
      warning: {
        message: `Harbor cannot route the model "${spec}": it names no provider, so Harbor ` +
          "records none and interpreter in the container falls back to openai",
        hint: `Name it as Harbor does, provider/model: -m openai/${spec.replace(/^\/|\/$/g, "")} ` +
          "or -m anthropic/..., and so on",
      },
    };
  }
  const id = providerIdOf(spec.slice(0, slash));
  if (builtinProvider(id)) return { planned: { spec, provider: id, wireApi: wireOf(id)! } };
  const fromConfig = id in configured;
  return {
    // Chat Completions: the wire most servers of an unknown provider speak.
    planned: { spec, provider: id, wireApi: wireOf(id) ?? "chat" },
    warning: {
      message: `Harbor cannot route the model "${spec}": ` +
        (fromConfig
          ? `provider "${id}" is defined in your config.toml, which Harbor's containers do not have`
          : `interpreter has no built-in provider "${id}"`),
      hint: `Name the model with a built-in provider: ${
        BUILTIN_PROVIDERS.map((p) => p.id).join(", ")
      }`,
    },
  };
}

/** Prints the Harbor job for `args` (warnings on stderr, the YAML on stdout). */
export async function printHarborConfig(args: EvalArgs, config: PlanConfig): Promise<void> {
  checkHarborArgs(args);
  const models = await harborModels(splitList(args.model ?? ""), config);
  for (const { warning } of models) {
    if (warning) console.error(`warning: ${warning.message}\nhint: ${warning.hint}`);
  }
  const pairs = await planPairs(args.harness ?? "fitting", models.map((m) => m.planned), config);
  const shim = shimDir();
  console.log(harborJobConfig({
    harnesses: [...new Set(pairs.map((p) => p.harness))],
    models: models.map((m) => m.planned.spec),
    repeat: args.repeat,
    jobs: args.jobs,
    ...(args.tasks ? { tasksPath: resolve(args.tasks) } : {}),
    ...(args.out ? { out: resolve(config.cwd, args.out) } : {}),
    ...(shim ? { shimDir: shim } : {}),
  }));
}

/** The folder of `interpreter_harbor.py` next to this checkout, when there is one. */
function shimDir(): string | undefined {
  if (!import.meta.url.startsWith("file:")) return undefined;
  const dir = fileURLToPath(new URL("../../../integrations/harbor", import.meta.url));
  return isFile(join(dir, "interpreter_harbor.py")) ? dir : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
