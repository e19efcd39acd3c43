// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * Everything a mode needs before its first model request: merged config, provider, harness,
 * sandbox and approvals, and the rendered system prompt. `exec` uses it today; the REPL and the
 * editor protocols will open the same session.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EffectiveConfig } from "../config/effective.ts";
import { configHome, findProjectRoot, loadConfig } from "../config/load.ts";
import { resolveProvider } from "../config/provider.ts";
import { listHarnessIds, loadHarness, userHarnessWarnings } from "../harness/load.ts";
import { renderSystemPrompt } from "../harness/prompt.ts";
import { openingReminders } from "../harness/reminders.ts";
import { chooseHarness } from "../harness/select.ts";
import type { Harness } from "../harness/types.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import { openProvider } from "../providers/mod.ts";
import type { SharedOptions } from "./cli.ts";
import { askOnTerminal, openSessionSandbox, type SessionSandbox } from "./sandbox_setup.ts";
import { type ChangeWatch, openChangeWatch } from "./held_back.ts";
import { openGitRunner } from "./safe_git.ts";
import { flagOverrides, promptVars, wireMismatch } from "./session_setup.ts";

const BUILTIN_HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** A ready session. Dispose it to stop the sandbox and the file-tool helper. */
export interface AgentSession extends AsyncDisposable {
  config: EffectiveConfig;
  settings: ProviderSettings;
  model: string;
  harness: Harness;
  provider: Provider;
  sandbox: SessionSandbox;
  system: string;
  /** The harness's session-start reminders, sent before the first prompt. */
  openingReminders: string[];
  /** True for project files held back because they changed while an earlier session ran. */
  isHeldBack: (path: string) => boolean;
}

/** Loads config, picks provider and harness, opens the sandbox and renders the prompt. */
export async function openAgentSession(
  options: SharedOptions,
  opts: { cwd: string; env: Record<string, string> },
): Promise<AgentSession> {
  const { cwd, env } = opts;
  const flags = flagOverrides(options, cwd);
  const watch = await openChangeWatch({
    cwd,
    root: await findProjectRoot(cwd),
    home: configHome(env, cwd),
  });
  try {
    return await openWatched(options, { ...opts, flags, watch });
  } catch (error) {
    await watch.close();
    throw error;
  }
}

async function openWatched(
  options: SharedOptions,
  opts: {
    cwd: string;
    env: Record<string, string>;
    flags: ReturnType<typeof flagOverrides>;
    watch: ChangeWatch;
  },
): Promise<AgentSession> {
  const { cwd, env, watch } = opts;
  const config = await loadConfig({
    cwd,
    env,
    flags: opts.flags,
    overrides: options.config,
    profile: options.profile,
    isHeldBack: watch.isHeld,
  });
  for (const warning of config.warnings) console.error(`warning: ${warning}`);
  if (watch.notice) console.error(`warning: ${watch.notice}`);
  const { settings, model } = resolveProvider(config, env);
  if (options.chatCompletions) settings.wireApi = "chat";
  // Independent start-up work runs together: it all stands between launch and the first request.
  const sandboxPromise = openSessionSandbox(config.values, {
    cwd,
    home: config.home,
    env,
    yolo: options.yolo,
    ask: Deno.stdin.isTerminal() && Deno.stderr.isTerminal() ? askOnTerminal : undefined,
    onDenied: (message) => console.error(`denied: ${message.split("\n")[0]}`),
  });
  const gitPromise = openGitRunner({ env });
  const closeAll = async () => {
    await sandboxPromise.then((s) => s[Symbol.asyncDispose](), () => {});
    await gitPromise.then((g) => g[Symbol.asyncDispose](), () => {});
  };
  const [harness, provider, sandbox, vars] = await Promise.all([
    pickHarness(config, settings, model),
    openProvider(settings),
    sandboxPromise,
    gitPromise.then((git) =>
      promptVars(cwd, {
        model,
        home: config.home,
        sandbox: "",
        env,
        guidance: config.values.harness_guidance,
        git,
        isHeldBack: watch.isHeld,
      })
    ),
  ]).catch(async (error) => {
    await closeAll();
    throw error;
  });
  if (!harness.wireApis.includes(settings.wireApi)) {
    await closeAll();
    throw wireMismatch(harness.id, settings.wireApi, harness.wireApis);
  }
  const filled = { ...vars, sandbox: sandbox.promptNote };
  const system = renderSystemPrompt(harness, filled);
  return {
    config,
    settings,
    model,
    harness,
    provider,
    sandbox,
    system,
    openingReminders: openingReminders(harness, filled),
    isHeldBack: watch.isHeld,
    [Symbol.asyncDispose]: async () => {
      await closeAll();
      await watch.close();
    },
  };
}

/** The configured harness, or the automatic choice for this model and provider. */
async function pickHarness(
  config: EffectiveConfig,
  settings: ProviderSettings,
  model: string,
): Promise<Harness> {
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  const id = chooseHarness({
    configured: config.values.harness,
    model,
    providerId: settings.id,
    providerName: settings.name,
    baseUrl: settings.baseUrl,
    wireApi: settings.wireApi,
    available: await listHarnessIds(dirs),
  });
  const harness = await loadHarness(id, dirs);
  for (const warning of await userHarnessWarnings(dirs.userDir, harness.id)) {
    console.error(`warning: ${warning}`);
  }
  return harness;
}
