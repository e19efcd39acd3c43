/**
 * `Session.configure()`: the one code path that changes a running session's settings (model,
 * reasoning effort, harness, sandbox mode, approval policy, plan mode). Every part of an update
 * is checked against the others before any is applied, then the history is kept (re-expressed
 * for a new harness, without reasoning a new model cannot read), the harness's context is
 * rendered again with the new values, the session file records the change and front ends hear
 * of it. Everything reads the settings in use: nothing keeps the start-up copy. The start-up
 * values pass the same checks when the session opens (settings_check.ts for the harness, wire and
 * model, sandbox_checks.ts for the sandbox mode and policy), except that a model no list has is
 * only noted there, as it is here with "NAME!".
 */
import { isAbsolute, resolve } from "node:path";
import { resolveProvider } from "../config/provider.ts";
import type { SandboxMode } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import { renderContext, withOpeningContext, withoutContext } from "../harness/context.ts";
import { loadHarness } from "../harness/load.ts";
import type { Harness } from "../harness/types.ts";
import { translateHistory, withoutSealedReasoning } from "../harness/translate.ts";
import { builtinProvider } from "../providers/builtin.ts";
import { openProvider } from "../providers/mod.ts";
import { takesImages } from "../providers/image_gate.ts";
import { checkLocalProvider, type LocalSetup } from "../providers/local/models.ts";
import type { ProviderSettings, WireApi } from "../providers/types.ts";
import { codeModeReason } from "../harness/code_mode.ts";
import { leanReason, sessionHarness } from "./agent_session.ts";
import { harnessDirs, isProvider, type RouteInUse } from "./choices.ts";
import type { PlanMode } from "./plan_mode.ts";
import { runningWorkOf } from "./_running_work.ts";
import {
  type AskedModel,
  checkPresentation,
  type ServedList,
  unlistedModel,
} from "./settings_check.ts";
import { limitsOf, type SessionParts } from "./session_parts.ts";
import { wireLabel } from "./setup.ts";
import type { AccessChange } from "./sandbox_setup.ts";
import { harnessSurface, requireBudgetPrice } from "./status.ts";
import type { ConfigureOptions, SessionSettings, SettingsUpdate } from "./types.ts";

/**
 * What `configure()` works on: the session's parts, its plan mode, and the servers' model lists
 * `Session.models()` fetched (what a model switched to by hand is checked against, besides the
 * catalog).
 */
export interface ConfigureTarget {
  parts: SessionParts;
  plan: PlanMode;
  served?: ReadonlyMap<string, ServedList>;
}

/** The settings of a session now, read from where each one lives. */
export function settingsOf(t: ConfigureTarget): SessionSettings {
  const { state, live } = t.parts;
  const { sandbox } = live.agent;
  const effort = state.loop.reasoningEffort;
  return {
    provider: state.route.providerId,
    wire: state.route.wireApi,
    model: state.loop.model,
    ...(effort ? { reasoningEffort: effort } : {}),
    harness: state.harness.id,
    sandboxMode: sandbox.mode,
    approvalPolicy: sandbox.policy,
    planMode: t.plan.on,
    ...(state.harness.leanReason !== undefined ? { lean: state.harness.leanReason } : {}),
    cwd: t.parts.config.cwd,
    writableRoots: [...sandbox.writableRoots],
  };
}

/** The harness, model and provider settings in use, for the harness choices. */
export function routeInUse(t: ConfigureTarget): RouteInUse {
  const { state, live } = t.parts;
  return { harness: state.harness.id, model: state.loop.model, provider: live.provider.settings };
}

/** A provider route to change to: its settings, the model there and what a local server said. */
interface NextRoute {
  settings: ProviderSettings;
  model: string;
  local?: LocalSetup;
}

/** Applies `update` (see the module comment); nothing changes when any part is refused. */
export async function configureSession(
  t: ConfigureTarget,
  update: SettingsUpdate,
  opts: ConfigureOptions = {},
): Promise<SessionSettings> {
  const { state, live } = t.parts;
  if (Object.keys(update).every((key) => key === "planMode")) {
    // Plan mode alone opens nothing and cannot be refused: it applies before the first await.
    if (update.planMode !== undefined) t.plan.set(update.planMode);
    record(t, { update, route: false });
    return Promise.resolve(settingsOf(t));
  }
  const route = update.model !== undefined ? await resolveRoute(t, update.model) : undefined;
  if (route) await requireBudgetPrice(t.parts, route);
  // A new model on a local server may call for the lean surface, or no longer.
  const lean = route ? routeLean(t, route) : state.harness.leanReason;
  const harnessId = update.harness ??
    (lean !== state.harness.leanReason || codeModeChanges(state.harness, route) ||
        imagesChange(t, route)
      ? state.harness.id
      : undefined);
  const next = route
    ? {
      model: route.model,
      wire: route.settings.wireApi,
      takesImages: takesImages(t.parts.catalog, route.settings, route.model),
    }
    : undefined;
  const harness = harnessId !== undefined ? await nextHarness(t, harnessId, lean, next) : undefined;
  // The same checks as the start-up values pass (openAgentSession()).
  checkPresentation(
    harness ?? state.harness,
    route?.settings.wireApi ?? state.route.wireApi,
    route?.local,
  );
  const access = await accessChange(t, update, await nextCwd(update));
  try {
    const provider = route ? await openProvider(route.settings) : undefined;
    const narrower = access ? narrows(live.agent.sandbox, access) : false;
    if (narrower) await stopWiderWork(t, access!, opts);
    // Checked: from here on every part applies.
    if (access) {
      const network = live.agent.sandbox.networkAllowed;
      await live.agent.sandbox.apply(access, { dropGrants: narrower });
      // Plan mode's read-only sandbox takes the network setting in use when it opens.
      if (access.networkAllowed !== network) await t.plan.closeSandbox();
      t.parts.info.sandbox = live.agent.sandbox.banner;
    }
    if (route && provider) applyRoute(t, route, provider);
    if (update.cwd !== undefined) t.parts.config.cwd = resolve(update.cwd);
  } catch (error) {
    if (access) await live.agent.sandbox.discard(access);
    throw error;
  }
  if (update.reasoningEffort) state.loop.reasoningEffort = update.reasoningEffort;
  if (harness) applyHarness(t, harness);
  if (update.planMode !== undefined) t.plan.set(update.planMode);
  if (route || harness || access) await renderAgain(t, Boolean(harness));
  record(t, { update, route: Boolean(route), harness, access });
  return settingsOf(t);
}

/** How much each sandbox mode lets commands do, least first. */
const MODE_ORDER: readonly SandboxMode[] = ["read-only", "workspace-write", "danger-full-access"];

/** Whether `next` lets commands do less than `now`: a narrower mode, or the network taken away. */
function narrows(
  now: { mode: SandboxMode; networkAllowed: boolean },
  next: AccessChange,
): boolean {
  return MODE_ORDER.indexOf(next.mode) < MODE_ORDER.indexOf(now.mode) ||
    (now.networkAllowed && !next.networkAllowed);
}

/**
 * Stops the background jobs and terminal started under the wider access before it narrows (after
 * a yes where someone is asked); refuses the change, naming them, on a no.
 */
async function stopWiderWork(
  t: ConfigureTarget,
  next: AccessChange,
  opts: ConfigureOptions,
): Promise<void> {
  const running = runningWorkOf(t.parts.live.resources);
  const names = await running.list();
  if (names.length === 0) return;
  if (opts.stopRunning && !await opts.stopRunning(names)) {
    const one = names.length === 1;
    throw new UserError(
      `The sandbox mode stays ${t.parts.live.agent.sandbox.mode}: ${names.join("; ")} ` +
        `started under it and still ${one ? "runs" : "run"}`,
      {
        hint: `Say yes to stop ${one ? "it" : "them"} and change to ${next.mode}, or stop ` +
          `${one ? "it" : "them"} yourself (/ps, /stop ID) and try again`,
      },
    );
  }
  await running.stop();
}

/**
 * The provider and model `given` ("NAME" or "PROVIDER/NAME") names, refused when the list at hand
 * lacks it unless it ends in "!" (settings_check.ts); on a local server, what the server says of the
 * model (its window, size, whether it calls tools), refusing a server that is down or lacks it.
 */
async function resolveRoute(t: ConfigureTarget, given: string): Promise<NextRoute> {
  const { agent } = t.parts.live;
  const forced = given.endsWith("!");
  const spec = forced ? given.slice(0, -1) : given;
  const slash = spec.indexOf("/");
  const wanted = slash > 0 && isProvider(agent, spec.slice(0, slash))
    ? { provider: spec.slice(0, slash), model: spec.slice(slash + 1) }
    : { provider: t.parts.state.route.providerId, model: spec };
  const values = { ...agent.config.values, model: wanted.model, model_provider: wanted.provider };
  const resolved = resolveProvider({ ...agent.config, values }, t.parts.env);
  if (!forced) checkListed(t, { model: wanted.model, spec, settings: resolved.settings });
  const local = await checkLocalProvider(resolved.settings, {
    model: resolved.model,
    chosen: true,
    contextWindow: values.model_context_window,
  });
  return { settings: resolved.settings, model: local?.model ?? resolved.model, local };
}

/**
 * Refuses a model the list at hand lacks (settings_check.ts); the model in use at its provider,
 * or a built-in provider's default, is always taken.
 */
function checkListed(t: ConfigureTarget, asked: Omit<AskedModel, "providerModel">): void {
  const { state, catalog } = t.parts;
  const providerModel = asked.settings.id === state.route.providerId
    ? state.loop.model
    : builtinProvider(asked.settings.id)?.defaultModel;
  const unlisted = unlistedModel({ ...asked, providerModel }, { catalog, served: t.served });
  if (unlisted) throw unlisted;
}

/** Why the session is lean on `route` (`leanReason()`), or undefined. */
function routeLean(t: ConfigureTarget, route: NextRoute): string | undefined {
  const { catalog, live } = t.parts;
  return leanReason(live.agent.config.values, { catalog, ...route });
}

/** A new model that enters or leaves the harness's code mode (`[code_mode]`). */
function codeModeChanges(h: Harness, route?: NextRoute): boolean {
  if (!route) return false;
  return codeModeReason(h, route.model, route.settings.wireApi) !== h.codeModeReason;
}

/** A new model that takes images where the current one does not, or the other way round. */
function imagesChange(t: ConfigureTarget, route?: NextRoute): boolean {
  if (!route) return false;
  const { catalog, state, live } = t.parts;
  return takesImages(catalog, route.settings, route.model) !==
    takesImages(catalog, live.provider.settings, state.loop.model);
}

/** Harness `id` as this session presents it: its tools, lean when `lean` says why. */
async function nextHarness(
  t: ConfigureTarget,
  id: string,
  lean?: string,
  next?: { model: string; wire: WireApi; takesImages: boolean },
): Promise<Harness> {
  const { agent } = t.parts.live;
  const loaded = await loadHarness(id, harnessDirs(agent)).then((h) =>
    agent.subagents?.offer(h) ?? h // defined sub-agents join its tool's agent types
  );
  // A session in lean mode stays lean with any harness; code mode follows the model.
  const { state } = t.parts;
  const route = next ?? {
    model: state.loop.model,
    wire: state.route.wireApi,
    takesImages: takesImages(t.parts.catalog, t.parts.live.provider.settings, state.loop.model),
  };
  return sessionHarness(loaded, agent.config.values, {
    lean,
    canAsk: agent.canAsk,
    route,
    answersQuestions: agent.answersQuestions,
    hidden: agent.permissions?.hidden,
  });
}

/** The sandbox change `update` asks for, checked; undefined when it asks for none. */
async function accessChange(
  t: ConfigureTarget,
  update: SettingsUpdate,
  cwd?: string,
): Promise<AccessChange | undefined> {
  const { sandbox, config } = t.parts.live.agent;
  const mode = update.sandboxMode ?? sandbox.mode;
  const policy = update.approvalPolicy ?? sandbox.policy;
  const extra = config.values.sandbox_workspace_write.writable_roots;
  const roots = update.writableRoots?.map((root) => resolve(root)) ??
    (cwd !== undefined ? [cwd, ...extra.map((root) => resolve(cwd, root))] : undefined);
  if (mode === sandbox.mode && policy === sandbox.policy && !roots) return undefined;
  return await sandbox.check({ mode, policy, ...(roots ? { writableRoots: roots } : {}) });
}

/** The working directory `update` asks for, checked: an existing folder, given absolute. */
async function nextCwd(update: SettingsUpdate): Promise<string | undefined> {
  if (update.cwd === undefined) return undefined;
  const hint = "Give the absolute path of an existing folder";
  if (!isAbsolute(update.cwd)) {
    throw new UserError(`The working directory ${update.cwd} is not absolute`, { hint });
  }
  const info = await Deno.stat(update.cwd).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new UserError(`The working directory ${update.cwd} is not a folder`, { hint });
  }
  return resolve(update.cwd);
}

/** Requests go to `route` from the next one on; reasoning it cannot read leaves the history. */
function applyRoute(
  t: ConfigureTarget,
  route: NextRoute,
  provider: SessionParts["live"]["provider"],
) {
  const { state, catalog, info } = t.parts;
  const { loop } = state;
  t.parts.live.provider = provider;
  loop.messages.splice(0, loop.messages.length, ...withoutSealedReasoning(loop.messages));
  state.route = { providerId: route.settings.id, wireApi: route.settings.wireApi };
  loop.model = route.model;
  const values = t.parts.live.agent.config.values;
  const window = route.local?.contextWindow;
  state.limits = limitsOf(catalog, values, route.settings, route.model, window);
  loop.requestOptions = { ...loop.requestOptions, maxOutputCap: state.limits.maxOutput };
  Object.assign(info, {
    model: route.model,
    provider: route.settings.id,
    wireApi: wireLabel(route.settings),
    contextNote: state.limits.guessNote,
  });
}

/** Presents `next` from the next request on, its history re-expressed in its words. */
function applyHarness(t: ConfigureTarget, next: Harness): void {
  const { state, info } = t.parts;
  const translated = translateHistory(withoutContext(state.loop.messages), state.harness, next);
  state.loop.messages.splice(0, state.loop.messages.length, ...translated);
  state.harness = next;
  info.harness = next.id;
  info.harnessDir = next.dir;
  delete info.surface;
  Object.assign(info, harnessSurface(next));
}

/**
 * Renders the harness's context again with the settings in use (`{{model}}`, `{{harness}}`, the
 * sandbox texts), and puts it in the history when it changed or the harness did. A session with
 * its own instructions (a review) keeps them.
 */
async function renderAgain(t: ConfigureTarget, harnessChanged: boolean): Promise<void> {
  const { state, live, config } = t.parts;
  const { messages } = state.loop;
  if (!config.instructions) {
    const { sandbox } = live.agent;
    const vars = await live.agent.promptVarsFor(state.harness, {
      model: state.loop.model,
      access: { mode: sandbox.mode, policy: sandbox.policy },
    });
    const next = renderContext(state.harness, vars);
    if (!harnessChanged && JSON.stringify(next) === JSON.stringify(state.context)) return;
    state.context = next;
  } else if (!harnessChanged) return;
  const bare = harnessChanged ? messages.slice() : withoutContext(messages);
  messages.splice(0, messages.length, ...withOpeningContext(state.context, bare));
  state.loop.system = state.context.system;
}

/** Writes the change to the session file and tells the front end. */
function record(
  t: ConfigureTarget,
  change: { update: SettingsUpdate; route: boolean; harness?: Harness; access?: AccessChange },
): void {
  const { state, live, io, info } = t.parts;
  const { recorder } = live;
  const { update } = change;
  const effort = state.loop.reasoningEffort;
  if (change.route || update.reasoningEffort) {
    recorder.append({
      type: "model_switch",
      provider: state.route.providerId,
      model: state.loop.model,
      ...(effort ? { reasoningEffort: effort } : {}),
    });
  }
  if (change.harness) recorder.append({ type: "harness_switch", harness: change.harness.id });
  const settings = settingsOf(t);
  if (change.access || update.planMode !== undefined) {
    recorder.append({
      type: "settings",
      sandboxMode: settings.sandboxMode,
      approvalPolicy: settings.approvalPolicy,
      planMode: settings.planMode,
    });
  }
  recorder.syncMessages();
  if (change.route || update.reasoningEffort) {
    io.onEvent({
      type: "model_switched",
      model: state.loop.model,
      provider: state.route.providerId,
      reasoningEffort: effort,
      contextNote: info.contextNote,
    });
  }
  if (change.harness) io.onEvent({ type: "harness_switched", harness: change.harness.id });
}
